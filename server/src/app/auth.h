/*
 * Account rules and secrets: username and password rules, and token hashing (tokens are stored
 * as BLAKE2b-256 hashes; they are long random strings, so a fast hash is enough, unlike
 * passwords, which go through Argon2id on the password thread, password.h).
 *
 * Pure functions over libsodium; any thread.
 */
#ifndef SERVER_APP_AUTH_H
#define SERVER_APP_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define AUTH_USERNAME_MIN   3
#define AUTH_USERNAME_MAX   20 /* STORE_USERNAME_MAX */
#define AUTH_PASSWORD_MIN   8
#define AUTH_PASSWORD_MAX   128
#define AUTH_TOKEN_HASH_LEN 32 /* STORE_HASH_LEN: BLAKE2b-256 */
#define AUTH_SESSION_BYTES  8  /* STORE_SESSION_ID_BYTES: a session's id is this much of its hash */
#define AUTH_SESSION_ID_LEN (2 * AUTH_SESSION_BYTES) /* in lower-case hexadecimal */

/*
 * Checks a username: 3 to 20 characters from A-Z a-z 0-9 _ -, starting with a letter, ending
 * with a letter or digit, no two of _ and - in a row, and not starting with "guest" (any case:
 * those names belong to guests). Writes the lower-case form (the login name; usernames are
 * unique regardless of case) into lower. Returns 0 or -1.
 */
int auth_username_check(const char *name, char lower[AUTH_USERNAME_MAX + 1]);

/* Checks a password: 8 to 128 bytes. Returns 0 or -1. */
int auth_password_check(const char *password);

/* The stored form of a token. */
void auth_token_hash(const char *token, uint8_t out[AUTH_TOKEN_HASH_LEN]);

/* A session's public id: the first AUTH_SESSION_BYTES of its token's hash (hash: at least
 * those bytes) in lower-case hex. It names the session to its account and proves nothing: the
 * token cannot be had from it. */
void auth_session_id(const uint8_t hash[AUTH_SESSION_BYTES], char out[AUTH_SESSION_ID_LEN + 1]);

/* The bytes a session id names (either case of hex). Returns 0, or -1 when text is not
 * AUTH_SESSION_ID_LEN hexadecimal digits. */
int auth_session_parse(const char *text, uint8_t out[AUTH_SESSION_BYTES]);

#endif
