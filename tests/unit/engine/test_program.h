/*
 * Runs one of the engine's programs (tune, match) for a test: argv[0] is the path, args the rest
 * (NULL-terminated, at most 62). Its stdout goes to out_fd and its stderr to err_fd (-1 keeps the
 * test's own); the environment is the test's. Returns the exit status, or -1 when it could not
 * run or did not exit. The includer defines _POSIX_C_SOURCE (fork, execv) before any header.
 */
#ifndef TEST_ENGINE_TEST_PROGRAM_H
#define TEST_ENGINE_TEST_PROGRAM_H

#include <sys/wait.h>
#include <unistd.h>

static inline int run_program(const char *path, const char *const args[], int out_fd, int err_fd) {
    const char *argv[64] = {path};
    int n = 1;
    while (args[n - 1] && n < 63) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if ((out_fd >= 0 && dup2(out_fd, 1) < 0) || (err_fd >= 0 && dup2(err_fd, 2) < 0))
            _exit(126);
        execv(path, (char *const *)argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

#endif
