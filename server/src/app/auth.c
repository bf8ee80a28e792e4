/*
 * Username and password rules, token hashes, session ids, and API token scopes.
 */
#include "app/auth.h"

#include <sodium.h>
#include <stdbool.h>
#include <string.h>

static int is_alpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

int auth_username_check(const char *name, char lower[AUTH_USERNAME_MAX + 1]) {
    size_t len = name ? strlen(name) : 0;
    if (len < AUTH_USERNAME_MIN || len > AUTH_USERNAME_MAX) return -1;
    if (!is_alpha(name[0]) || !(is_alpha(name[len - 1]) || is_digit(name[len - 1]))) return -1;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        bool sep = c == '_' || c == '-';
        if (!is_alpha(c) && !is_digit(c) && !sep) return -1;
        if (sep && (name[i + 1] == '_' || name[i + 1] == '-')) return -1;
        lower[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    lower[len] = '\0';
    if (strncmp(lower, "guest", 5) == 0) return -1;
    return 0;
}

int auth_password_check(const char *password) {
    size_t len = password ? strlen(password) : 0;
    return len >= AUTH_PASSWORD_MIN && len <= AUTH_PASSWORD_MAX ? 0 : -1;
}

void auth_token_hash(const char *token, uint8_t out[AUTH_TOKEN_HASH_LEN]) {
    crypto_generichash(out, AUTH_TOKEN_HASH_LEN, (const unsigned char *)token, strlen(token), NULL,
                       0);
}

void auth_session_id(const uint8_t hash[AUTH_SESSION_BYTES], char out[AUTH_SESSION_ID_LEN + 1]) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < AUTH_SESSION_BYTES; i++) {
        out[2 * i] = digits[hash[i] >> 4];
        out[2 * i + 1] = digits[hash[i] & 15];
    }
    out[AUTH_SESSION_ID_LEN] = '\0';
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int auth_session_parse(const char *text, uint8_t out[AUTH_SESSION_BYTES]) {
    if (!text || strlen(text) != AUTH_SESSION_ID_LEN) return -1;
    for (int i = 0; i < AUTH_SESSION_BYTES; i++) {
        int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

/* ---- API token scopes ---- */

/* Indexed by bit number, in the order of enum auth_scope. */
static const char *const scope_names[] = {
    "preference:read", "preference:write", "email:read", "challenge:read",
    "challenge:write", "tournament:write", "board:play", "bot:play",
};
#define SCOPE_COUNT (int)(sizeof scope_names / sizeof scope_names[0])
_Static_assert(AUTH_SCOPE_ALL == (1u << SCOPE_COUNT) - 1, "one name per scope");

const char *auth_scope_name(unsigned scope) {
    for (int i = 0; i < SCOPE_COUNT; i++)
        if (scope == 1u << i) return scope_names[i];
    return NULL;
}

static bool is_scope_separator(char c) {
    return c == ',' || c == ' ';
}

int auth_scopes_parse(const char *text, unsigned *mask) {
    *mask = 0;
    unsigned found = 0;
    for (const char *p = text; p && *p;) {
        if (is_scope_separator(*p)) {
            p++;
            continue;
        }
        size_t len = 0;
        while (p[len] && !is_scope_separator(p[len])) len++;
        int i = 0;
        while (i < SCOPE_COUNT &&
               !(strlen(scope_names[i]) == len && memcmp(scope_names[i], p, len) == 0))
            i++;
        if (i == SCOPE_COUNT) return -1;
        found |= 1u << i;
        p += len;
    }
    *mask = found;
    return 0;
}

int auth_scopes_format(unsigned mask, char *out, size_t size) {
    if (size > 0) out[0] = '\0';
    if (size == 0 || (mask & ~(unsigned)AUTH_SCOPE_ALL)) return -1;
    size_t len = 0;
    for (int i = 0; i < SCOPE_COUNT; i++) {
        if (!(mask & 1u << i)) continue;
        size_t n = strlen(scope_names[i]);
        if (len + (len > 0) + n + 1 > size) {
            out[0] = '\0';
            return -1;
        }
        if (len > 0) out[len++] = ',';
        memcpy(out + len, scope_names[i], n);
        len += n;
        out[len] = '\0';
    }
    return (int)len;
}
