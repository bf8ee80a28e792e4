/*
 * Time sources: a monotonic millisecond clock for everything that measures durations (game
 * clocks, timers, rate limits) and the wall clock for what people read (game dates, logs).
 * Any thread.
 */
#ifndef SERVER_UTIL_NOW_H
#define SERVER_UTIL_NOW_H

#include <stdint.h>

/* Milliseconds on CLOCK_MONOTONIC (arbitrary origin, never jumps). */
int64_t now_mono_ms(void);

/* Microseconds on CLOCK_MONOTONIC, for latency histograms. */
int64_t now_mono_us(void);

/* Milliseconds since the Unix epoch (CLOCK_REALTIME). */
int64_t now_wall_ms(void);

#endif
