/*
 * Client addresses behind reverse proxies.
 *
 * Behind nginx every connection comes from the proxy's address, so anything limited per address
 * (logins) would limit the whole site at once. The operator names the proxies it trusts (addresses
 * or CIDR ranges); for a connection from one of them the client is the rightmost address of
 * X-Forwarded-For that is not itself a trusted proxy (entries further left were written by the
 * client and prove nothing), or X-Real-IP without that header. Connections from anyone else keep
 * their peer address: their headers are ignored.
 *
 * Pure functions on text; IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) count as IPv4.
 */
#ifndef SERVER_UTIL_NETADDR_H
#define SERVER_UTIL_NETADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NETADDR_LIST_MAX 32
#define NETADDR_TEXT_MAX 46 /* INET6_ADDRSTRLEN */

struct netaddr_range {
    int family;       /* AF_INET or AF_INET6 */
    uint8_t addr[16]; /* network byte order; 4 bytes used for IPv4 */
    int prefix;       /* leading bits that must match */
};

struct netaddr_list {
    struct netaddr_range ranges[NETADDR_LIST_MAX];
    int count;
};

/*
 * Parses a comma-separated list of addresses and CIDR ranges ("10.0.0.0/8, ::1"); an empty
 * spec gives an empty list. Returns 0, or -1 with a readable reason in err on a bad entry or
 * more than NETADDR_LIST_MAX entries (out is then empty).
 */
int netaddr_list_parse(const char *spec, struct netaddr_list *out, char *err, size_t err_len);

/* Whether the address text lies in one of the list's ranges (false for text that is no address). */
bool netaddr_list_contains(const struct netaddr_list *list, const char *addr);

/*
 * The client's address for a connection from peer that sent these headers (NULL or "" when
 * absent), written to out (at least NETADDR_TEXT_MAX bytes). When every entry is a trusted
 * proxy, the leftmost is the client. Reaching an entry that is no address gives the peer: its
 * clients then share one address, which is safe, where trusting anything further left would let
 * a client choose its address.
 */
void netaddr_client(const struct netaddr_list *trusted, const char *peer, const char *forwarded_for,
                    const char *real_ip, char *out, size_t out_len);

#endif
