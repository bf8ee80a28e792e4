/*
 * Password hashing for accounts: Argon2id (libsodium's crypto_pwhash, interactive limits) is
 * slow on purpose, tens of milliseconds and 64 MiB each, so it never runs on the loop. The loop
 * submits a job (hash a new password, or verify one against an account's stored hash) with a
 * cookie; a thread of its own does the work, and the result comes back through a locked queue:
 * the thread calls the wake function when the queue goes from empty to non-empty, and the loop
 * takes the results with password_poll(). Wake-ups coalesce.
 *
 * Passwords are copied into the job and wiped when it is done; nothing here touches the store.
 *
 * Functions return 0 or a negative enum password_status unless said otherwise.
 */
#ifndef SERVER_APP_PASSWORD_H
#define SERVER_APP_PASSWORD_H

#include <stdint.h>

#define PASSWORD_HASH_MAX 128 /* crypto_pwhash_STRBYTES: an encoded hash and its NUL */

enum password_status {
    PASSWORD_OK = 0,
    PASSWORD_ERR_MISMATCH,  /* verification: not the password of that hash */
    PASSWORD_ERR_NO_MEMORY, /* an allocation (Argon2id's memory included) failed */
    PASSWORD_ERR_INIT,      /* libsodium or the thread could not be set up */
};

enum password_result_kind {
    PASSWORD_RESULT_HASH,   /* password_hash */
    PASSWORD_RESULT_VERIFY, /* password_verify */
};

struct password_result {
    enum password_result_kind kind;
    uint64_t cookie;
    int status;                   /* 0 or a negative enum password_status */
    char hash[PASSWORD_HASH_MAX]; /* HASH: the encoded hash (Argon2id) */
};

/* Called from the password thread when results wait for password_poll(); must be thread-safe
 * and cheap. */
typedef void (*password_wake_fn)(void *ctx);

struct passwords;

/* Initialises libsodium and starts the thread, which calls wake(wake_ctx) (may be NULL). NULL
 * when that fails (logged). The thread that owns the loop. */
struct passwords *password_start(password_wake_fn wake, void *wake_ctx);

/* Stops the thread (after the job it is doing) and frees everything, results not polled and
 * jobs not started included. NULL is ignored. */
void password_stop(struct passwords *pw);

/* Hashes a password with Argon2id; the result's hash holds the encoded hash. Returns 0 or
 * -NO_MEMORY. Loop thread. */
int password_hash(struct passwords *pw, const char *password, uint64_t cookie);

/* Verifies a password against an encoded hash; the result's status is 0 or -MISMATCH. Returns
 * 0 or -NO_MEMORY. Loop thread. */
int password_verify(struct passwords *pw, const char *password, const char *hash, uint64_t cookie);

/* Hashes a password with Argon2id on the calling thread (tens of milliseconds: never on the
 * loop; for the command line's password reset). out receives the encoded hash. Returns 0,
 * -INIT (libsodium) or -NO_MEMORY. */
int password_hash_now(const char *password, char out[PASSWORD_HASH_MAX]);

typedef void (*password_result_fn)(void *ctx, const struct password_result *result);

/* Takes the finished jobs' results and calls fn for each, in order (the result is wiped after
 * the call). Returns how many. Loop thread. */
int password_poll(struct passwords *pw, password_result_fn fn, void *ctx);

#endif
