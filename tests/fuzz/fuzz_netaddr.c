/*
 * Fuzz target: client addresses behind proxies (util/netaddr.h). The input is four lines: the
 * trusted proxies (--trusted-proxy), the peer's address, X-Forwarded-For and X-Real-IP. The
 * list either parses or is refused with a reason and left empty; the client's address is the
 * peer itself or an address read from a header, in canonical form; headers from an untrusted
 * peer change nothing; and the address is the one the rule of netaddr.h, written the plain way
 * here, gives.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util/netaddr.h"

/* The next line of *text (cut in place), or "" after the last. */
static char *next_line(char **text) {
    char *line = *text, *newline = strchr(line, '\n');
    if (newline) {
        *newline = '\0';
        *text = newline + 1;
    } else {
        *text = line + strlen(line);
    }
    return line;
}

/* Whether text is an address written the way inet_ntop writes it. */
static bool canonical(const char *text) {
    uint8_t bytes[16];
    char again[NETADDR_TEXT_MAX];
    int family = strchr(text, ':') ? AF_INET6 : AF_INET;
    return inet_pton(family, text, bytes) == 1 && inet_ntop(family, bytes, again, sizeof again) &&
           strcmp(again, text) == 0;
}

/* An address entry (blanks around it allowed) in canonical form into out; false when it is
 * none. IPv4-mapped IPv6 counts as IPv4. */
static bool entry_address(const char *start, const char *end, char out[NETADDR_TEXT_MAX]) {
    while (start < end && isspace((unsigned char)*start)) start++;
    while (end > start && isspace((unsigned char)end[-1])) end--;
    char text[NETADDR_TEXT_MAX];
    size_t len = (size_t)(end - start);
    if (len == 0 || len >= sizeof text) return false;
    memcpy(text, start, len);
    text[len] = '\0';
    uint8_t bytes[16];
    if (inet_pton(AF_INET, text, bytes) == 1)
        return inet_ntop(AF_INET, bytes, out, NETADDR_TEXT_MAX);
    if (inet_pton(AF_INET6, text, bytes) != 1) return false;
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(bytes, mapped, sizeof mapped) == 0)
        return inet_ntop(AF_INET, bytes + 12, out, NETADDR_TEXT_MAX);
    return inet_ntop(AF_INET6, bytes, out, NETADDR_TEXT_MAX);
}

/* netaddr.h's rule written the plain way, to compare with: the hops of X-Forwarded-For from the
 * right while they are trusted proxies; an entry that is no address gives the peer. */
static void expected_client(const struct netaddr_list *trusted, const char *peer,
                            const char *forwarded_for, const char *real_ip,
                            char out[NETADDR_TEXT_MAX]) {
    snprintf(out, NETADDR_TEXT_MAX, "%s", peer);
    if (!netaddr_list_contains(trusted, peer)) return;
    if (forwarded_for[0]) {
        const char *commas[4096];
        size_t n = 0;
        for (const char *p = forwarded_for; *p && n < 4096; p++)
            if (*p == ',') commas[n++] = p;
        char hop[NETADDR_TEXT_MAX];
        const char *end = forwarded_for + strlen(forwarded_for);
        for (size_t i = n + 1; i-- > 0;) {
            const char *start = i == 0 ? forwarded_for : commas[i - 1] + 1;
            if (!entry_address(start, end, hop)) {
                snprintf(out, NETADDR_TEXT_MAX, "%s", peer);
                return;
            }
            snprintf(out, NETADDR_TEXT_MAX, "%s", hop);
            if (!netaddr_list_contains(trusted, hop)) return;
            end = start - (i > 0);
        }
        return;
    }
    char addr[NETADDR_TEXT_MAX];
    if (entry_address(real_ip, real_ip + strlen(real_ip), addr))
        snprintf(out, NETADDR_TEXT_MAX, "%s", addr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    char *rest = text;
    const char *spec = next_line(&rest), *peer = next_line(&rest);
    const char *forwarded_for = next_line(&rest), *real_ip = next_line(&rest);

    struct netaddr_list trusted;
    char err[256] = "";
    if (netaddr_list_parse(spec, &trusted, err, sizeof err) < 0)
        FUZZ_ASSERT(err[0] && trusted.count == 0);
    FUZZ_ASSERT(trusted.count >= 0 && trusted.count <= NETADDR_LIST_MAX);
    for (int i = 0; i < trusted.count; i++) {
        const struct netaddr_range *r = &trusted.ranges[i];
        FUZZ_ASSERT(r->prefix >= 0 && r->prefix <= (r->family == AF_INET ? 32 : 128));
    }

    char out[NETADDR_TEXT_MAX];
    netaddr_client(&trusted, peer, forwarded_for, real_ip, out, sizeof out);
    FUZZ_ASSERT(memchr(out, '\0', sizeof out));
    if (!netaddr_list_contains(&trusted, peer)) {
        /* Headers from anyone else are ignored (the peer as lws gives it always fits). */
        FUZZ_ASSERT(strlen(peer) >= sizeof out || strcmp(out, peer) == 0);
    } else if (!forwarded_for[0] && !real_ip[0]) {
        FUZZ_ASSERT(strcmp(out, peer) == 0);
    } else if (strcmp(out, peer) != 0) {
        FUZZ_ASSERT(canonical(out)); /* read from a header */
    }
    char expected[NETADDR_TEXT_MAX];
    expected_client(&trusted, peer, forwarded_for, real_ip, expected);
    if (strcmp(out, expected) != 0) {
        fprintf(stderr, "client %s, expected %s\n", out, expected);
        FUZZ_ASSERT(!"the client is the rightmost hop that is not a trusted proxy");
    }
    /* The same headers give the same client: no hidden state. */
    char again[NETADDR_TEXT_MAX];
    netaddr_client(&trusted, peer, forwarded_for, real_ip, again, sizeof again);
    FUZZ_ASSERT(strcmp(out, again) == 0);
    free(text);
    return 0;
}
