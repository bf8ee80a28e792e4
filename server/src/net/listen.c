/*
 * The listening sockets (the players' port, and the metrics port when there is one) and
 * accepting on them. Accepted connections go to http.c, which reads every request and hands
 * WebSocket upgrades to lws.
 *
 * When descriptors run out (accept fails with EMFILE or ENFILE) the pending connection stays
 * in the kernel's queue and the listening socket stays readable: polling it would spin. So
 * accepting pauses (the listeners are not polled), once logged and counted in
 * net_stats.accept_paused, and resumes when one of our connections closes (listen_fd_freed) or,
 * failing that, after a second; the waiting clients are then served in turn.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "net/internal.h"
#include "util/log.h"

#define LISTEN_BACKLOG  1024
#define ACCEPT_RETRY_MS 1000

int listen_open(const char *addr, int port) {
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    socklen_t len;
    struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)&ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)&ss;
    bool any = !addr || !*addr;
    if (!any && inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        len = sizeof *v4;
    } else if (any || inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6; /* any: in6addr_any, which takes IPv4 too */
        v6->sin6_port = htons((uint16_t)port);
        len = sizeof *v6;
    } else {
        LOGE("net", "cannot listen on %s: not an IPv4 or IPv6 address", addr);
        return -1;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0 && any) { /* no IPv6 on this machine: every IPv4 address */
        memset(&ss, 0, sizeof ss);
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        len = sizeof *v4;
        fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    }
    if (fd < 0) {
        LOGE("net", "cannot create a socket: %s", strerror(errno));
        return -1;
    }
    int one = 1, zero = 0;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        (ss.ss_family == AF_INET6 && any &&
         setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero) != 0) ||
        bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, LISTEN_BACKLOG) != 0) {
        LOGE("net", "cannot listen on %s:%d: %s", any ? "*" : addr, port, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

static void on_listen(uv_poll_t *poll, int status, int events);
static void on_accept_timer(uv_timer_t *t);

static void poll_listeners(struct net *net, bool on) {
    for (int i = 0; i < 2; i++) {
        struct listener *l = &net->listeners[i];
        if (l->fd < 0 || l->polling == on) continue;
        int rc = on ? uv_poll_start(&l->poll, UV_READABLE, on_listen) : uv_poll_stop(&l->poll);
        if (rc != 0) LOGW("net", "cannot poll a listening socket: %s", uv_strerror(rc));
        l->polling = on && rc == 0;
    }
}

/* Out of descriptors: stop polling until one is freed. */
static void pause_accepting(struct net *net, int err) {
    poll_listeners(net, false);
    if (!net->fds_exhausted) {
        net->fds_exhausted = true;
        net->stats.accept_paused++;
        LOGW("net",
             "out of file descriptors (%s): not accepting connections until one closes "
             "(raise ulimit -n / LimitNOFILE=)",
             strerror(err));
    }
    if (net->accept_timer_started &&
        uv_timer_start(&net->accept_timer, on_accept_timer, ACCEPT_RETRY_MS, 0) != 0)
        LOGW("net", "cannot start the accept timer");
}

static void accept_all(struct listener *l) {
    struct net *net = l->net;
    for (int i = 0; i < 64; i++) {
        int fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                pause_accepting(net, errno);
            return; /* EAGAIN: all taken */
        }
        if (net->fds_exhausted) {
            net->fds_exhausted = false;
            LOGI("net", "accepting connections again");
        }
        http_accept(net, fd, l->internal);
    }
}

static void on_listen(uv_poll_t *poll, int status, int events) {
    (void)events;
    if (status < 0) return;
    accept_all(poll->data);
}

static void resume_accepting(struct net *net) {
    if (!net->accepting) return;
    poll_listeners(net, true);
    for (int i = 0; i < 2 && net->fds_exhausted; i++)
        if (net->listeners[i].fd >= 0) accept_all(&net->listeners[i]);
}

static void on_accept_timer(uv_timer_t *t) {
    struct net *net = t->data;
    if (net->fds_exhausted) resume_accepting(net);
}

void listen_fd_freed(struct net *net) {
    if (net->fds_exhausted && net->accepting) resume_accepting(net);
}

int listen_start(struct net *net) {
    if (uv_timer_init(&net->loop, &net->accept_timer) != 0) return -1;
    net->accept_timer.data = net;
    net->accept_timer_started = true;
    for (int i = 0; i < 2; i++) {
        struct listener *l = &net->listeners[i];
        if (l->fd < 0) continue;
        l->net = net;
        l->poll.data = l;
        if (uv_poll_init_socket(&net->loop, &l->poll, l->fd) != 0) return -1;
        l->initialised = true;
    }
    poll_listeners(net, true);
    return 0;
}

void listen_close(struct net *net) {
    for (int i = 0; i < 2; i++) {
        struct listener *l = &net->listeners[i];
        if (l->fd < 0) continue;
        if (l->initialised) uv_close((uv_handle_t *)&l->poll, NULL);
        l->initialised = false;
        close(l->fd);
        l->fd = -1;
        l->polling = false;
    }
}
