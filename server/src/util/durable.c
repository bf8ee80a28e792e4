/*
 * fsync of a file and of a directory, each through a descriptor opened for it alone.
 */
#include "util/durable.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Opens path with flags, optionally sets its mode, syncs it and closes it. */
static int sync_path(const char *path, int flags, mode_t mode) {
    int fd = open(path, flags | O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    int rc = 0;
    if (mode != 0 && fchmod(fd, mode) != 0) rc = -errno;
    if (rc == 0 && fsync(fd) != 0) rc = -errno;
    if (close(fd) != 0 && rc == 0) rc = -errno;
    return rc;
}

int durable_file(const char *path, mode_t mode) {
    return sync_path(path, 0, mode);
}

int durable_dir(const char *dir) {
    return sync_path(dir, O_DIRECTORY, 0);
}
