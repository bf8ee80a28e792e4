/*
 * A learned evaluation (NNUE): an efficiently updatable neural network, "768 -> 256 x 2 -> 1"
 * with eight output buckets by the number of pieces on the board, trained on the project's own
 * self-play (engine/tools/nnue_train.c, docs/engine.md "NNUE").
 *
 * A network is an immutable object that any number of searches may share across threads. The
 * engine carries one built in (engine/nets/); others come from the bytes of a network file,
 * which the caller reads (the library does no I/O). A search uses a network when its request
 * names one (chess_search_request.nnue); otherwise it uses the hand-written evaluation.
 */
#ifndef CHESS_NNUE_H
#define CHESS_NNUE_H

#include <stddef.h>

#include "chess/position.h"

struct chess_nnue;

/* The network built into the library; never NULL, never to be destroyed. */
const struct chess_nnue *chess_nnue_builtin(void);

/*
 * A network from the bytes of a network file (the format is in engine/src/nnue.h), copied, so
 * the caller may free them at once (a file of an older version, or one without the king buckets
 * of a build that has them, is converted). Returns NULL when
 * the bytes are not a network of the shape this build expects, when its output weights are out
 * of the range the output layer computes exactly, or when out of memory. Free with
 * chess_nnue_destroy().
 */
struct chess_nnue *chess_nnue_create(const void *bytes, size_t size);

void chess_nnue_destroy(struct chess_nnue *net);

/* The size in bytes of a network file of the shape this build expects (the largest it reads). */
size_t chess_nnue_file_size(void);

/*
 * Evaluates the position from scratch in centipawns from the side to move's point of view, as
 * the search does incrementally. Reentrant.
 */
int chess_nnue_evaluate(const struct chess_nnue *net, const struct chess_position *pos);

#endif
