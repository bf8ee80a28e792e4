/*
 * The password reset: the line of input (echo off while a terminal types it), the rules, the
 * hash, the store's reset. Secrets are wiped before returning.
 */
#include "app/reset.h"

#include <sodium.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "app/auth.h"
#include "app/password.h"
#include "util/ids.h"
#include "util/now.h"

/* Letters and digits of a generated password: about 119 bits. */
#define GENERATED_LEN 20

/* Reads one line (without its end) into buf (size bytes). Returns 0, or -1 when the line is
 * longer than buf holds or the input fails. On a terminal the line is typed without echo. */
static int read_line(FILE *in, FILE *err, char *buf, size_t size) {
    int fd = fileno(in);
    struct termios saved, quiet;
    bool terminal = fd >= 0 && isatty(fd) && tcgetattr(fd, &saved) == 0;
    if (terminal) {
        fprintf(err, "New password (empty: generate one): ");
        fflush(err);
        quiet = saved;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        if (tcsetattr(fd, TCSAFLUSH, &quiet) != 0) terminal = false;
    }
    bool got = fgets(buf, (int)size, in) != NULL;
    if (terminal) {
        fprintf(err, "\n");
        if (tcsetattr(fd, TCSAFLUSH, &saved) != 0) fprintf(err, "(the terminal's echo is off)\n");
    }
    if (!got) {
        buf[0] = '\0';
        return ferror(in) ? -1 : 0; /* no input at all: an empty line */
    }
    size_t len = strcspn(buf, "\r\n");
    if (buf[len] == '\0' && !feof(in)) return -1; /* no end of line within size */
    buf[len] = '\0';
    return 0;
}

int reset_password_run(const struct store_config *cfg, const char *username, FILE *in, FILE *out,
                       FILE *err) {
    char lower[AUTH_USERNAME_MAX + 1];
    char password[AUTH_PASSWORD_MAX + 2]; /* the line's end, or one byte too many */
    char hash[PASSWORD_HASH_MAX], why[512];
    int status = 2, revoked = 0;
    bool generated = false;
    if (auth_username_check(username, lower) < 0) {
        fprintf(err, "chess_server: \"%s\" is not a username\n", username);
        return 2;
    }
    if (read_line(in, err, password, sizeof password) < 0) {
        fprintf(err, "chess_server: a password has %d to %d bytes, on one line\n",
                AUTH_PASSWORD_MIN, AUTH_PASSWORD_MAX);
        goto done;
    }
    if (!password[0]) {
        generated = true;
        if (ids_random_text(password, GENERATED_LEN) < 0) {
            fprintf(err, "chess_server: cannot generate a password\n");
            status = 1;
            goto done;
        }
    }
    if (auth_password_check(password) < 0) {
        fprintf(err, "chess_server: a password has %d to %d bytes\n", AUTH_PASSWORD_MIN,
                AUTH_PASSWORD_MAX);
        goto done;
    }
    status = 1;
    if (password_hash_now(password, hash) < 0) {
        fprintf(err, "chess_server: cannot hash the password (out of memory?)\n");
        goto done;
    }
    if (store_reset_password(cfg, lower, hash, now_wall_ms(), &revoked, why, sizeof why) < 0) {
        fprintf(err, "chess_server: password not changed: %s\n", why);
        goto done;
    }
    fprintf(out, "The password of %s is changed; %d session(s) revoked.\n", lower, revoked);
    if (generated) fprintf(out, "New password: %s\n", password);
    status = 0;
done:
    sodium_memzero(password, sizeof password);
    sodium_memzero(hash, sizeof hash);
    return status;
}
