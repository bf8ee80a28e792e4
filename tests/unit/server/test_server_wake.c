/*
 * Tests of the loop's wake-up path: a thread posts results while the server runs;
 * each is applied on the loop thread, in order, and the last one stops the server, which must
 * then shut down cleanly. Binds a free loopback port.
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app/server.h"
#include "check.h"
#include "util/log.h"

enum { RESULTS = 5000 };

struct counted {
    struct server_result base; /* first */
    int seq;
};

static int applied, out_of_order;
static pthread_t loop_thread;
static int wrong_thread;

static void apply(struct server *srv, struct server_result *r) {
    struct counted *c = (struct counted *)(void *)r;
    if (c->seq != applied) out_of_order++;
    if (!pthread_equal(pthread_self(), loop_thread)) wrong_thread++;
    applied++;
    if (c->seq == RESULTS - 1) server_request_stop(srv);
    free(c);
}

static void *producer(void *arg) {
    struct server *srv = arg;
    for (int i = 0; i < RESULTS; i++) {
        struct counted *c = malloc(sizeof *c);
        if (!c) abort();
        c->base.apply = apply;
        c->seq = i;
        server_post(srv, &c->base);
        if (i % 500 == 0) usleep(1000);
    }
    return NULL;
}

static int free_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    bind(fd, (struct sockaddr *)&a, sizeof a);
    getsockname(fd, (struct sockaddr *)&a, &len);
    close(fd);
    return ntohs(a.sin_port);
}

static void test_results_from_another_thread(void) {
    struct server_config cfg;
    server_config_defaults(&cfg);
    cfg.listen_addr = "127.0.0.1";
    cfg.port = free_port();
    cfg.static_dir = "/nonexistent";
    applied = out_of_order = wrong_thread = 0;
    struct server *srv = server_create(&cfg);
    CHECK(srv != NULL);
    if (!srv) return;
    loop_thread = pthread_self();
    pthread_t t;
    pthread_create(&t, NULL, producer, srv);
    CHECK_EQ_INT(server_run(srv), 0);
    pthread_join(t, NULL);
    server_destroy(srv);
    CHECK_EQ_INT(applied, RESULTS);
    CHECK_EQ_INT(out_of_order, 0);
    CHECK_EQ_INT(wrong_thread, 0);
}

int main(void) {
    log_set_level(LOG_WARN);
    RUN(test_results_from_another_thread);
    return check_finish();
}
