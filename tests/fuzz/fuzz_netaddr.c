/*
 * Fuzz target: client addresses behind proxies (util/netaddr.h). The input is four lines: the
 * trusted proxies (--trusted-proxy), the peer's address, X-Forwarded-For and X-Real-IP. The
 * list either parses or is refused with a reason and left empty; the client's address is the
 * peer itself or an address read from a header, in canonical form; headers from an untrusted
 * peer change nothing.
 */
#include <arpa/inet.h>
#include <stdbool.h>
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
    /* The same headers give the same client: no hidden state. */
    char again[NETADDR_TEXT_MAX];
    netaddr_client(&trusted, peer, forwarded_for, real_ip, again, sizeof again);
    FUZZ_ASSERT(strcmp(out, again) == 0);
    free(text);
    return 0;
}
