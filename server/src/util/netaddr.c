#include "util/netaddr.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses one address (no brackets, no port); IPv4-mapped IPv6 becomes IPv4. */
static bool parse_addr(const char *text, int *family, uint8_t addr[16]) {
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, text, &v4) == 1) {
        *family = AF_INET;
        memcpy(addr, &v4, 4);
        return true;
    }
    if (inet_pton(AF_INET6, text, &v6) != 1) return false;
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(v6.s6_addr, mapped, sizeof mapped) == 0) {
        *family = AF_INET;
        memcpy(addr, v6.s6_addr + 12, 4);
        return true;
    }
    *family = AF_INET6;
    memcpy(addr, v6.s6_addr, 16);
    return true;
}

/* Copies the text between start and end without surrounding blanks; false when it is empty or
 * too long to be an address. */
static bool trimmed(const char *start, const char *end, char *out, size_t out_len) {
    while (start < end && isspace((unsigned char)*start)) start++;
    while (end > start && isspace((unsigned char)end[-1])) end--;
    size_t len = (size_t)(end - start);
    if (len == 0 || len >= out_len) return false;
    memcpy(out, start, len);
    out[len] = '\0';
    return true;
}

static int parse_range(const char *entry, struct netaddr_range *out) {
    char text[NETADDR_TEXT_MAX + 8];
    snprintf(text, sizeof text, "%s", entry);
    char *slash = strchr(text, '/');
    if (slash) *slash = '\0';
    if (!parse_addr(text, &out->family, out->addr)) return -1;
    bool written_as_v6 = strchr(text, ':') != NULL;
    int bits = written_as_v6 ? 128 : 32;
    long prefix = bits;
    if (slash) {
        char *end = NULL;
        prefix = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end != '\0' || prefix < 0 || prefix > bits) return -1;
    }
    /* A mapped IPv6 range (::ffff:10.0.0.0/104) names IPv4 addresses: count its bits as IPv4's. */
    if (out->family == AF_INET && written_as_v6) prefix -= 96;
    if (prefix < 0) return -1;
    out->prefix = (int)prefix;
    return 0;
}

int netaddr_list_parse(const char *spec, struct netaddr_list *out, char *err, size_t err_len) {
    out->count = 0;
    if (!spec) return 0;
    for (const char *p = spec; *p;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        char entry[NETADDR_TEXT_MAX + 8];
        if (!trimmed(p, end, entry, sizeof entry)) {
            bool blank = true;
            for (const char *q = p; q < end; q++) blank = blank && isspace((unsigned char)*q);
            if (!blank || comma) {
                snprintf(err, err_len, "an empty or overlong entry in \"%s\"", spec);
                out->count = 0;
                return -1;
            }
        } else if (out->count == NETADDR_LIST_MAX) {
            snprintf(err, err_len, "more than %d entries", NETADDR_LIST_MAX);
            out->count = 0;
            return -1;
        } else if (parse_range(entry, &out->ranges[out->count]) < 0) {
            snprintf(err, err_len, "\"%s\" is no address or CIDR range", entry);
            out->count = 0;
            return -1;
        } else {
            out->count++;
        }
        p = comma ? comma + 1 : end;
    }
    return 0;
}

static bool range_contains(const struct netaddr_range *r, int family, const uint8_t addr[16]) {
    if (r->family != family) return false;
    int full = r->prefix / 8, rest = r->prefix % 8;
    if (memcmp(r->addr, addr, (size_t)full) != 0) return false;
    if (rest == 0) return true;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (r->addr[full] & mask) == (addr[full] & mask);
}

static bool contains_parsed(const struct netaddr_list *list, int family, const uint8_t addr[16]) {
    for (int i = 0; i < list->count; i++)
        if (range_contains(&list->ranges[i], family, addr)) return true;
    return false;
}

bool netaddr_list_contains(const struct netaddr_list *list, const char *addr) {
    int family;
    uint8_t bytes[16];
    return addr && parse_addr(addr, &family, bytes) && contains_parsed(list, family, bytes);
}

/* Writes the canonical text of an address. */
static void format_addr(int family, const uint8_t addr[16], char *out, size_t out_len) {
    char text[NETADDR_TEXT_MAX];
    if (!inet_ntop(family, addr, text, sizeof text)) text[0] = '\0';
    snprintf(out, out_len, "%s", text);
}

void netaddr_client(const struct netaddr_list *trusted, const char *peer, const char *forwarded_for,
                    const char *real_ip, char *out, size_t out_len) {
    snprintf(out, out_len, "%s", peer ? peer : "");
    if (!netaddr_list_contains(trusted, peer)) return;
    int family;
    uint8_t addr[16];
    char entry[NETADDR_TEXT_MAX];
    if (forwarded_for && *forwarded_for) {
        const char *end = forwarded_for + strlen(forwarded_for);
        for (;;) {
            const char *start = end;
            while (start > forwarded_for && start[-1] != ',') start--;
            /* An empty entry is no address either (",a" ends in one on the left). */
            if (!trimmed(start, end, entry, sizeof entry) || !parse_addr(entry, &family, addr)) {
                snprintf(out, out_len, "%s", peer); /* as documented */
                return;
            }
            format_addr(family, addr, out, out_len);
            if (!contains_parsed(trusted, family, addr)) return;
            if (start == forwarded_for) return; /* every hop trusted: the leftmost, in out */
            end = start - 1;
        }
    }
    if (real_ip && trimmed(real_ip, real_ip + strlen(real_ip), entry, sizeof entry) &&
        parse_addr(entry, &family, addr))
        format_addr(family, addr, out, out_len);
}
