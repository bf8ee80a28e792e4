/* Tests of the mailbox: order, coalesced wake-ups, and posts from several threads at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "check.h"
#include "util/mailbox.h"

struct item {
    struct mailbox_item link; /* first */
    int producer, seq;
};

static atomic_int wakes;

static void count_wake(void *ctx) {
    (void)ctx;
    atomic_fetch_add(&wakes, 1);
}

static void test_order_and_coalescing(void) {
    struct mailbox mb;
    CHECK_EQ_INT(mailbox_init(&mb, count_wake, NULL), 0);
    atomic_store(&wakes, 0);
    struct item items[5];
    for (int i = 0; i < 5; i++) {
        items[i].seq = i;
        mailbox_post(&mb, &items[i].link);
    }
    CHECK_EQ_INT(atomic_load(&wakes), 1); /* one wake-up for the burst */
    int expect = 0;
    for (struct mailbox_item *it = mailbox_take_all(&mb); it; it = it->next)
        CHECK_EQ_INT(((struct item *)(void *)it)->seq, expect++);
    CHECK_EQ_INT(expect, 5);
    CHECK(mailbox_take_all(&mb) == NULL);
    mailbox_post(&mb, &items[0].link); /* taken: the next post wakes again */
    CHECK_EQ_INT(atomic_load(&wakes), 2);
    mailbox_take_all(&mb);
    mailbox_destroy(&mb);
}

enum { PRODUCERS = 4, PER_PRODUCER = 20000 };
static struct mailbox shared;

static void *produce(void *arg) {
    int p = (int)(intptr_t)arg;
    for (int i = 0; i < PER_PRODUCER; i++) {
        struct item *it = malloc(sizeof *it);
        if (!it) abort();
        it->producer = p;
        it->seq = i;
        mailbox_post(&shared, &it->link);
    }
    return NULL;
}

static void test_threads(void) {
    CHECK_EQ_INT(mailbox_init(&shared, count_wake, NULL), 0);
    atomic_store(&wakes, 0);
    pthread_t threads[PRODUCERS];
    for (int p = 0; p < PRODUCERS; p++)
        pthread_create(&threads[p], NULL, produce, (void *)(intptr_t)p);
    int next[PRODUCERS] = {0}, received = 0, out_of_order = 0;
    while (received < PRODUCERS * PER_PRODUCER) {
        struct mailbox_item *it = mailbox_take_all(&shared);
        while (it) {
            struct item *x = (struct item *)(void *)it;
            it = it->next;
            if (x->seq != next[x->producer]++) out_of_order++;
            received++;
            free(x);
        }
    }
    for (int p = 0; p < PRODUCERS; p++) pthread_join(threads[p], NULL);
    CHECK_EQ_INT(out_of_order, 0); /* each producer's items arrive in its order */
    CHECK(atomic_load(&wakes) <= received);
    CHECK_EQ_INT(shared.posts, PRODUCERS * PER_PRODUCER);
    mailbox_destroy(&shared);
}

int main(void) {
    RUN(test_order_and_coalescing);
    RUN(test_threads);
    return check_finish();
}
