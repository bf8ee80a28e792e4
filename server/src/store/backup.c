/*
 * Online backups, the same for every backend (store.h): the names of the files and the
 * directory's checks, and the backup thread. The thread waits for a request from the loop
 * (store_backup_request), has the backend write a copy under a temporary name (backend.h),
 * syncs it, renames it to its final name and syncs the directory, deletes the oldest backups
 * beyond `keep`, and reports the outcome through the result queue like a commit. One backup at
 * a time; a request while one is under way is refused, not queued.
 *
 * Names: chess-YYYYMMDDTHHMMSS.mmmZ<suffix> in UTC, so that sorting the names sorts the backups
 * by time. The instant in the name is taken before the backend starts copying, so everything
 * committed before it is in the file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/internal.h"
#include "util/durable.h"
#include "util/log.h"
#include "util/now.h"

#define NAME_PREFIX "chess-"
#define STAMP_LEN   20 /* "20251207T143005.123Z" */
#define PARTIAL     ".partial"
#define BACKUP_MODE 0640 /* a backup holds password and token hashes */
#define PATH_BYTES  4096

/* Writes the file name of a backup taken at at_ms into out. */
static void backup_name(int64_t at_ms, const char *suffix, char *out, size_t len) {
    time_t secs = (time_t)(at_ms / 1000);
    struct tm tm;
    char stamp[32] = "19700101T000000";
    if (gmtime_r(&secs, &tm)) strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
    snprintf(out, len, NAME_PREFIX "%s.%03dZ%s", stamp, (int)(at_ms % 1000), suffix);
}

static bool digits(const char *s, int n) {
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static int number(const char *s, int n) {
    int v = 0;
    for (int i = 0; i < n; i++) v = v * 10 + (s[i] - '0');
    return v;
}

/*
 * Reads a backup's name: its time (Unix ms) when name is a backup's file name followed by
 * exactly tail (the suffix, or the suffix and PARTIAL), else -1.
 */
static int64_t backup_time(const char *name, const char *suffix, const char *tail_extra) {
    size_t plen = strlen(NAME_PREFIX);
    if (strncmp(name, NAME_PREFIX, plen) != 0) return -1;
    const char *p = name + plen;
    /* YYYYMMDD T HHMMSS . mmm Z */
    if (!digits(p, 8) || p[8] != 'T' || !digits(p + 9, 6) || p[15] != '.' || !digits(p + 16, 3) ||
        p[19] != 'Z')
        return -1;
    const char *rest = p + STAMP_LEN;
    size_t slen = strlen(suffix);
    if (strncmp(rest, suffix, slen) != 0 || strcmp(rest + slen, tail_extra) != 0) return -1;
    struct tm tm = {.tm_year = number(p, 4) - 1900,
                    .tm_mon = number(p + 4, 2) - 1,
                    .tm_mday = number(p + 6, 2),
                    .tm_hour = number(p + 9, 2),
                    .tm_min = number(p + 11, 2),
                    .tm_sec = number(p + 13, 2)};
    time_t secs = timegm(&tm);
    if (secs == (time_t)-1) return -1;
    return (int64_t)secs * 1000 + number(p + 16, 3);
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Lists the backups in dir (final names only), sorted oldest first, into *names (malloc'd
 * strings in a malloc'd array, *count of them; the caller frees both). Returns 0 or -errno.
 */
static int list_backups(const char *dir, const char *suffix, char ***names, size_t *count) {
    *names = NULL;
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) return -errno;
    int rc = 0;
    size_t cap = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (backup_time(e->d_name, suffix, "") < 0) continue;
        char *copy = strdup(e->d_name);
        if (!copy || store_list_reserve((void **)names, &cap, *count + 1, sizeof **names) < 0) {
            free(copy);
            rc = -ENOMEM;
            break;
        }
        (*names)[(*count)++] = copy;
    }
    closedir(d);
    if (*count > 1) qsort(*names, *count, sizeof **names, compare_names);
    return rc;
}

static void free_names(char **names, size_t count) {
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
}

/* Deletes the oldest backups beyond keep. Failures are logged: the next backup tries again. */
static void prune(struct store *s) {
    char **names;
    size_t count;
    int rc = list_backups(s->backup_dir, s->backend->backup_suffix, &names, &count);
    if (rc < 0) LOGW("store", "cannot list the backups in %s: %s", s->backup_dir, strerror(-rc));
    for (size_t i = 0; i + (size_t)s->backup_keep < count; i++) {
        char path[PATH_BYTES];
        snprintf(path, sizeof path, "%s/%s", s->backup_dir, names[i]);
        if (unlink(path) == 0)
            LOGI("store", "backup %s deleted (keeping the newest %d)", path, s->backup_keep);
        else
            LOGW("store", "cannot delete the old backup %s: %s", path, strerror(errno));
    }
    free_names(names, count);
}

/* Syncs a complete partial file, gives it its final name and syncs the directory. Returns 0
 * or -STORE_ERR_IO (err filled). */
static int install(const char *partial, const char *path, const char *dir, char *err,
                   size_t errlen) {
    const char *what = "sync";
    int sys = durable_file(partial, BACKUP_MODE);
    if (sys == 0) {
        what = "rename";
        sys = rename(partial, path) == 0 ? 0 : -errno;
    }
    if (sys == 0) {
        what = "sync the directory of";
        sys = durable_dir(dir);
    }
    if (sys < 0) snprintf(err, errlen, "cannot %s %s: %s", what, partial, strerror(-sys));
    return sys < 0 ? -STORE_ERR_IO : 0;
}

static bool backup_cancelled(void *ctx) {
    struct store *s = ctx;
    return atomic_load(&s->backup_cancel);
}

/*
 * Takes one backup into the backup directory and fills r (status, instant, duration).
 * Everything it logs is one line.
 */
static void take_backup(struct store *s, struct store_result *r) {
    int64_t began_us = now_mono_us();
    int64_t at_ms = now_wall_ms();
    char name[96], path[PATH_BYTES], partial[PATH_BYTES + sizeof PARTIAL];
    char err[2 * PATH_BYTES + 512] = "";
    backup_name(at_ms, s->backend->backup_suffix, name, sizeof name);
    int rc = 0;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", s->backup_dir, name) >= sizeof path) {
        snprintf(err, sizeof err, "the backup directory's path is too long");
        rc = -STORE_ERR_IO;
    }
    snprintf(partial, sizeof partial, "%s" PARTIAL, path);
    if (rc == 0 && unlink(partial) != 0 && errno != ENOENT) {
        snprintf(err, sizeof err, "cannot remove %s: %s", partial, strerror(errno));
        rc = -STORE_ERR_IO;
    }
    if (rc == 0) rc = s->backend->backup(s->db, partial, backup_cancelled, s, err, sizeof err);
    if (rc == 0) rc = install(partial, path, s->backup_dir, err, sizeof err);
    r->status = rc;
    r->backup_at_ms = at_ms;
    r->backup_us = now_mono_us() - began_us;
    if (rc < 0) {
        (void)unlink(partial); /* what there is of it; never under the final name */
        if (atomic_load(&s->backup_cancel))
            LOGI("store", "backup %s abandoned: the store is closing", path);
        else
            LOGE("store", "backup %s failed: %s", path, err);
        return;
    }
    struct stat st;
    long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    LOGI("store", "backup %s written: %lld bytes in %lld ms", path, bytes,
         (long long)(r->backup_us / 1000));
    prune(s);
}

static void *backup_main(void *arg) {
    struct store *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->backup_wanted && !s->stopping) pthread_cond_wait(&s->backup_cond, &s->lock);
        if (s->stopping) break;
        s->backup_wanted = false;
        pthread_mutex_unlock(&s->lock);

        struct store_result r = {.kind = STORE_RESULT_BACKUP};
        take_backup(s, &r);

        pthread_mutex_lock(&s->lock);
        s->backup_busy = false;
        bool need = store_push_result(s, &r);
        pthread_mutex_unlock(&s->lock);
        store_wake(s, need);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Checks that a file can be created in dir (root passes access(2) on a read-only mount). */
static int probe_dir(const char *dir, char *err, size_t errlen) {
    char path[PATH_BYTES];
    snprintf(path, sizeof path, "%s/.chess-backup-probe-%ld", dir, (long)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, BACKUP_MODE);
    if (fd < 0) {
        snprintf(err, errlen, "backup directory %s is not writable: %s", dir, strerror(errno));
        return -STORE_ERR_LOCATION;
    }
    close(fd);
    if (unlink(path) != 0) {
        snprintf(err, errlen, "backup directory %s: cannot remove %s: %s", dir, path,
                 strerror(errno));
        return -STORE_ERR_LOCATION;
    }
    return 0;
}

/* Deletes the partial files a stopped backup left in dir (ours only, by their names). */
static void remove_partials(const char *dir, const char *suffix) {
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (backup_time(e->d_name, suffix, PARTIAL) < 0) continue;
        char path[PATH_BYTES];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) == 0)
            LOGI("store", "removed %s, left by a backup that did not finish", path);
        else
            LOGW("store", "cannot remove %s: %s", path, strerror(errno));
    }
    closedir(d);
}

int store_backup_setup(struct store *s, const char *dir, int keep, int64_t *newest_ms, char *err,
                       size_t errlen) {
    *newest_ms = 0;
    if (!s->backend->backup) {
        snprintf(err, errlen, "the %s store cannot back itself up while running: use its own tools",
                 s->backend->name);
        return -STORE_ERR_UNSUPPORTED;
    }
    struct stat st;
    if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "backup directory %s cannot be created: %s", dir, strerror(errno));
        return -STORE_ERR_LOCATION;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "backup directory %s is not a directory", dir);
        return -STORE_ERR_LOCATION;
    }
    int rc = probe_dir(dir, err, errlen);
    if (rc < 0) return rc;
    const char *suffix = s->backend->backup_suffix;
    remove_partials(dir, suffix);
    char **names;
    size_t count;
    if ((rc = list_backups(dir, suffix, &names, &count)) < 0) {
        snprintf(err, errlen, "cannot list backup directory %s: %s", dir, strerror(-rc));
        return -STORE_ERR_LOCATION;
    }
    if (count > 0) *newest_ms = backup_time(names[count - 1], suffix, "");
    free_names(names, count);
    if (!s->backup_dir && pthread_cond_init(&s->backup_cond, NULL) != 0) {
        snprintf(err, errlen, "cannot set up the backup thread");
        return -STORE_ERR_IO;
    }
    s->backup_dir = dir;
    s->backup_keep = keep > 0 ? keep : 1;
    err[0] = '\0';
    return 0;
}

int backups_start(struct store *s) {
    if (!s->backup_dir) return 0;
    if (pthread_create(&s->backup_thread, NULL, backup_main, s) != 0) return -STORE_ERR_IO;
    s->backup_running = true;
    return 0;
}

void backups_stop(struct store *s) {
    if (!s->backup_dir) return;
    if (s->backup_running) {
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->backup_cond);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->backup_thread, NULL);
        s->backup_running = false;
    }
    pthread_cond_destroy(&s->backup_cond);
    s->backup_dir = NULL;
}

int store_backup_request(struct store *s) {
    int rc = 0;
    pthread_mutex_lock(&s->lock);
    if (!s->backup_running || s->stopping)
        rc = -STORE_ERR_FAILED;
    else if (s->backup_busy)
        rc = -STORE_ERR_BUSY;
    if (rc == 0) {
        s->backup_busy = s->backup_wanted = true;
        pthread_cond_signal(&s->backup_cond);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}
