/*
 * The backup schedule and its metrics: one timer on the loop, re-armed every interval when it
 * fires; the backups themselves are the store's (store/backup.c), which logs each outcome.
 */
#include "app/backup.h"

#include "app/internal.h"
#include "app/persist.h"
#include "store/store.h"
#include "util/log.h"
#include "util/now.h"

void backup_attach(struct server *srv, int64_t interval_ms, int64_t newest_ms) {
    srv->backup_interval_ms = interval_ms;
    metrics_backup_init(&srv->metrics.backup, newest_ms);
    int64_t delay_ms = newest_ms > 0 ? newest_ms + interval_ms - now_wall_ms() : 0;
    if (delay_ms < 0) delay_ms = 0;
    if (delay_ms > interval_ms) delay_ms = interval_ms; /* the clock went back */
    server_arm_backup_timer(srv, delay_ms);
    LOGI("backup", "a backup every %lld s, the next in %lld s", (long long)(interval_ms / 1000),
         (long long)(delay_ms / 1000));
}

void backup_due(struct server *srv) {
    if (srv->stopping) return;
    struct store *store = persist_store(srv);
    int rc = store ? store_backup_request(store) : -STORE_ERR_FAILED;
    if (rc == -STORE_ERR_BUSY)
        LOGW("backup", "the last backup has not ended yet: this one is skipped");
    else if (rc < 0)
        LOGW("backup", "cannot ask for a backup: %s", store_status_name(rc));
    server_arm_backup_timer(srv, srv->backup_interval_ms);
}

void backup_on_result(struct server *srv, const struct store_result *r) {
    struct metrics_backup *m = &srv->metrics.backup;
    if (r->status < 0) {
        m->failures++; /* the store's thread logged why */
        return;
    }
    m->successes++;
    m->last_success_ms = r->backup_at_ms;
    metrics_hist_observe(&m->duration_s, (double)r->backup_us / 1e6);
}
