/* Tests of trusted-proxy address lists and of finding the client behind proxies. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "util/netaddr.h"

static struct netaddr_list parsed(const char *spec) {
    struct netaddr_list list;
    char err[128];
    CHECK_EQ_INT(netaddr_list_parse(spec, &list, err, sizeof err), 0);
    return list;
}

static void test_parse(void) {
    struct netaddr_list list = parsed("");
    CHECK_EQ_INT(list.count, 0);
    list = parsed(" 10.0.0.0/8 , 127.0.0.1,::1, fd00::/8 ");
    CHECK_EQ_INT(list.count, 4);
    CHECK_EQ_INT(list.ranges[0].prefix, 8);
    CHECK_EQ_INT(list.ranges[1].prefix, 32);
    CHECK_EQ_INT(list.ranges[2].prefix, 128);
    list = parsed("::ffff:192.168.0.0/112");
    CHECK_EQ_INT(list.ranges[0].prefix, 16); /* counted as IPv4 bits */

    static const char *const bad[] = {
        "10.0.0.0/33", "10.0.0/8",   "localhost", "1.2.3.4,,5.6.7.8", "::1/129", "1.2.3.4/",
        "1.2.3.4/x",   "1.2.3.4/-1", ",",         "::ffff:1.2.3.4/95"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[128] = "";
        CHECK_EQ_INT(netaddr_list_parse(bad[i], &list, err, sizeof err), -1);
        CHECK_EQ_INT(list.count, 0);
        CHECK(err[0] != '\0');
    }
    char spec[1024] = "";
    for (int i = 0; i <= NETADDR_LIST_MAX; i++) {
        char one[24];
        snprintf(one, sizeof one, "%s10.0.0.%d", i ? "," : "", i);
        strcat(spec, one);
    }
    char err[128];
    CHECK_EQ_INT(netaddr_list_parse(spec, &list, err, sizeof err), -1);
}

static void test_contains(void) {
    struct netaddr_list list = parsed("10.0.0.0/8,172.16.0.0/12,::1,fd00::/8,192.168.1.128/25");
    CHECK(netaddr_list_contains(&list, "10.255.1.2"));
    CHECK(netaddr_list_contains(&list, "172.31.255.255"));
    CHECK(!netaddr_list_contains(&list, "172.32.0.1"));
    CHECK(netaddr_list_contains(&list, "::1"));
    CHECK(netaddr_list_contains(&list, "fdab::7"));
    CHECK(!netaddr_list_contains(&list, "fe80::1"));
    CHECK(netaddr_list_contains(&list, "::ffff:10.1.2.3")); /* mapped counts as IPv4 */
    CHECK(netaddr_list_contains(&list, "192.168.1.200"));
    CHECK(!netaddr_list_contains(&list, "192.168.1.100"));
    CHECK(!netaddr_list_contains(&list, "not an address"));
    CHECK(!netaddr_list_contains(&list, ""));
    CHECK(!netaddr_list_contains(&list, NULL));
    struct netaddr_list none = parsed("");
    CHECK(!netaddr_list_contains(&none, "10.0.0.1"));
}

static const char *client(const char *trusted, const char *peer, const char *xff,
                          const char *real_ip) {
    static char out[NETADDR_TEXT_MAX];
    struct netaddr_list list = parsed(trusted);
    netaddr_client(&list, peer, xff, real_ip, out, sizeof out);
    return out;
}

static void test_client(void) {
    /* No trusted proxies: headers are ignored. */
    CHECK_EQ_STR(client("", "10.0.0.5", "203.0.113.7", "203.0.113.8"), "10.0.0.5");
    /* An untrusted peer cannot choose its address. */
    CHECK_EQ_STR(client("10.0.0.0/8", "198.51.100.1", "203.0.113.7", NULL), "198.51.100.1");
    /* One proxy: the rightmost entry, which the proxy wrote. */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "203.0.113.7", NULL), "203.0.113.7");
    /* A client's forged entry further left is not believed. */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "1.1.1.1, 203.0.113.7", NULL), "203.0.113.7");
    /* Two proxies: trusted hops are skipped from the right. */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "1.1.1.1, 203.0.113.7 ,10.0.0.9", NULL),
                 "203.0.113.7");
    /* Every hop trusted: the leftmost. */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "10.1.1.1,10.0.0.9", NULL), "10.1.1.1");
    /* Garbage where an address should be: the peer. */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "203.0.113.7, unknown", NULL), "10.0.0.5");
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "203.0.113.7,", NULL), "10.0.0.5");
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "unknown, 10.0.0.9", NULL), "10.0.0.5");
    /* An empty entry on the left is no address either (fuzz_netaddr). */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", ",10.0.0.9", NULL), "10.0.0.5");
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", " , 10.0.0.9", NULL), "10.0.0.5");
    /* X-Real-IP only without X-Forwarded-For; a bad one leaves the peer. */
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", NULL, " 203.0.113.8 "), "203.0.113.8");
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", "", "203.0.113.8"), "203.0.113.8");
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", NULL, "bogus"), "10.0.0.5");
    /* Mapped peers and IPv6 clients, written canonically. */
    CHECK_EQ_STR(client("127.0.0.1", "::ffff:127.0.0.1", "2001:DB8::0:1", NULL), "2001:db8::1");
    CHECK_EQ_STR(client("::1", "::1", "::ffff:203.0.113.7", NULL), "203.0.113.7");
    /* An overlong entry is no address. */
    char longest[200];
    memset(longest, '1', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    CHECK_EQ_STR(client("10.0.0.0/8", "10.0.0.5", longest, NULL), "10.0.0.5");
}

int main(void) {
    RUN(test_parse);
    RUN(test_contains);
    RUN(test_client);
    return check_finish();
}
