/*
 * The waiting requests: a singly linked list, newest first (a handful wait at a time).
 */
#include "app/waiting.h"

#include "app/internal.h"
#include "proto/encode.h"
#include "proto/proto.h"

void waiting_init(struct waiting_list *list, uint64_t first_cookie, int max,
                  void (*release)(struct waiting *w)) {
    *list = (struct waiting_list){.max = max, .next_cookie = first_cookie, .release = release};
}

int waiting_add(struct waiting_list *list, struct waiting *w, struct conn *c, const json_t *id) {
    if (list->count >= list->max) return -PROTO_ERR_RATE_LIMITED;
    w->id = id ? json_deep_copy(id) : NULL;
    if (id && !w->id) return -PROTO_ERR_INTERNAL;
    w->cookie = ++list->next_cookie;
    w->conn = c;
    w->next = list->head;
    list->head = w;
    list->count++;
    return 0;
}

struct waiting *waiting_find(const struct waiting_list *list, uint64_t cookie) {
    struct waiting *w = list->head;
    while (w && w->cookie != cookie) w = w->next;
    return w;
}

static void release(struct waiting_list *list, struct waiting *w) {
    json_decref(w->id);
    w->id = NULL;
    list->release(w);
}

void waiting_done(struct waiting_list *list, struct waiting *w) {
    for (struct waiting **at = &list->head; *at; at = &(*at)->next) {
        if (*at != w) continue;
        *at = w->next;
        list->count--;
        release(list, w);
        return;
    }
}

void waiting_reply(struct waiting *w, json_t *msg, int code) {
    if (!w->conn) {
        json_decref(msg);
        return;
    }
    if (!msg) {
        conn_send_error(w->conn, code, w->id, NULL);
        return;
    }
    proto_set_id(msg, w->id);
    conn_send_json(w->conn, msg);
}

void waiting_conn_gone(struct waiting_list *list, struct conn *c) {
    for (struct waiting *w = list->head; w; w = w->next)
        if (w->conn == c) w->conn = NULL;
}

void waiting_clear(struct waiting_list *list) {
    while (list->head) {
        struct waiting *w = list->head;
        list->head = w->next;
        release(list, w);
    }
    list->count = 0;
}
