/*
 * A minimal unit-test harness: CHECK macros that record failures without stopping, and a
 * summary line at the end. Each test program is one ctest test; its exit code is the verdict.
 *
 *   static void test_something(void) { CHECK(x == 1); CHECK_EQ_INT(f(), 2); }
 *   int main(void) { RUN(test_something); return check_finish(); }
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>
#include <string.h>

/* Counters owned by the harness of one test program (single-threaded). */
struct check_state {
    int checks;
    int failures;
    const char *current_test;
};

static struct check_state check_state;

static inline int check_record(int ok, const char *expr, const char *file, int line) {
    check_state.checks++;
    if (!ok) {
        check_state.failures++;
        printf("FAIL %s:%d in %s: %s\n", file, line,
               check_state.current_test ? check_state.current_test : "?", expr);
    }
    return ok;
}

#define CHECK(cond) check_record(!!(cond), #cond, __FILE__, __LINE__)

#define CHECK_EQ_INT(actual, expected)                                                             \
    do {                                                                                           \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                \
        if (!check_record(check_a_ == check_e_, #actual " == " #expected, __FILE__, __LINE__))     \
            printf("     got %lld, expected %lld\n", check_a_, check_e_);                          \
    } while (0)

#define CHECK_EQ_STR(actual, expected)                                                             \
    do {                                                                                           \
        const char *check_a_ = (actual), *check_e_ = (expected);                                   \
        int check_ok_ = check_a_ && check_e_ && strcmp(check_a_, check_e_) == 0;                   \
        if (!check_record(check_ok_, #actual " == " #expected, __FILE__, __LINE__))                \
            printf("     got \"%s\", expected \"%s\"\n", check_a_ ? check_a_ : "(null)",           \
                   check_e_ ? check_e_ : "(null)");                                                \
    } while (0)

#define RUN(test_fn)                                                                               \
    do {                                                                                           \
        check_state.current_test = #test_fn;                                                       \
        test_fn();                                                                                 \
    } while (0)

static inline int check_finish(void) {
    printf("%d checks, %d failed\n", check_state.checks, check_state.failures);
    return check_state.failures ? 1 : 0;
}

#endif
