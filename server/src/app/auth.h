/*
 * Account rules and secrets: username and password rules, token hashing (tokens are stored
 * as BLAKE2b-256 hashes; they are long random strings, so a fast hash is enough, unlike
 * passwords, which go through Argon2id on the password thread, password.h), and the scopes of
 * personal API access tokens (app/tokens.h), spelled as lichess spells them.
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

/*
 * What a personal API access token may do, one bit each. Their text is lichess's ("bot:play");
 * AUTH_SCOPE_ALL is every scope this server knows, and their order here is the order in which
 * auth_scopes_format() writes them (lichess's own listing order).
 */
enum auth_scope {
    AUTH_SCOPE_PREFERENCE_READ = 1u << 0,  /* preference:read: read the account's preferences */
    AUTH_SCOPE_PREFERENCE_WRITE = 1u << 1, /* preference:write: change them */
    AUTH_SCOPE_EMAIL_READ = 1u << 2,       /* email:read: read the account's email address */
    AUTH_SCOPE_CHALLENGE_READ = 1u << 3,   /* challenge:read: read incoming challenges */
    AUTH_SCOPE_CHALLENGE_WRITE = 1u << 4,  /* challenge:write: send, accept, decline them */
    AUTH_SCOPE_TOURNAMENT_WRITE = 1u << 5, /* tournament:write: create, join and withdraw from
                                              arena tournaments */
    AUTH_SCOPE_BOARD_PLAY = 1u << 6,       /* board:play: play games with the board API */
    AUTH_SCOPE_BOT_PLAY = 1u << 7,         /* bot:play: play games with the bot API */
    AUTH_SCOPE_ALL = (1u << 8) - 1
};

/* The longest text auth_scopes_format() writes, with its NUL (every scope: 111 bytes). */
#define AUTH_SCOPES_TEXT_MAX 128 /* STORE_SCOPES_MAX */

/* One scope's text ("bot:play") for a single bit of AUTH_SCOPE_ALL; NULL for anything else. */
const char *auth_scope_name(unsigned scope);

/*
 * Reads scopes as lichess spells them, separated by commas and/or spaces ("bot:play,board:play",
 * "board:play challenge:read"); repeats are allowed, and text NULL or without any scope means
 * none. *mask receives their bits. Returns 0, or -1 on a word that is not a scope (*mask is then
 * 0).
 */
int auth_scopes_parse(const char *text, unsigned *mask);

/*
 * Writes mask's scopes comma-separated, in the order of enum auth_scope ("board:play,bot:play";
 * "" for none) into out (size bytes). Returns the length written, or -1 when mask has a bit
 * that is not a scope or out is too small (out is then "" when size > 0).
 */
int auth_scopes_format(unsigned mask, char *out, size_t size);

#endif
