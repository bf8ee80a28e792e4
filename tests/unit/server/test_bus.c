/* Tests of the bus's pure helpers: Redis addresses ("host:port", "[v6]:port") and node ids. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pubsub/bus.h"

static void test_addresses(void) {
    char host[64];
    int port = 0;
    CHECK_EQ_INT(bus_parse_address("redis:6380", host, sizeof host, &port), 0);
    CHECK_EQ_STR(host, "redis");
    CHECK_EQ_INT(port, 6380);
    CHECK_EQ_INT(bus_parse_address("10.0.0.5", host, sizeof host, &port), 0);
    CHECK_EQ_STR(host, "10.0.0.5");
    CHECK_EQ_INT(port, 6379);
    CHECK_EQ_INT(bus_parse_address("[::1]:7000", host, sizeof host, &port), 0);
    CHECK_EQ_STR(host, "::1");
    CHECK_EQ_INT(port, 7000);
    CHECK_EQ_INT(bus_parse_address("[fe80::1]", host, sizeof host, &port), 0);
    CHECK_EQ_STR(host, "fe80::1");
    CHECK_EQ_INT(port, 6379);
    /* Refused: empty, no host, bad or out-of-range ports, unclosed brackets, too long. */
    const char *bad[] = {"",          ":6379", "redis:", "redis:0", "redis:65536",
                         "redis:12x", "[::1",  "[::1]x", "[]:6379"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(bus_parse_address(bad[i], host, sizeof host, &port), -1);
    CHECK_EQ_INT(bus_parse_address(NULL, host, sizeof host, &port), -1);
    char tiny[4];
    CHECK_EQ_INT(bus_parse_address("redis:1", tiny, sizeof tiny, &port), -1);
}

static void test_node_ids(void) {
    CHECK(bus_node_id_valid("a"));
    CHECK(bus_node_id_valid("node-1.eu_west"));
    CHECK(bus_node_id_valid("abcdefghijklmnopqrstuvwxyz012345")); /* 32 */
    CHECK(!bus_node_id_valid("abcdefghijklmnopqrstuvwxyz0123456"));
    CHECK(!bus_node_id_valid(""));
    CHECK(!bus_node_id_valid(NULL));
    CHECK(!bus_node_id_valid("a b"));
    CHECK(!bus_node_id_valid("a:b"));
    CHECK(!bus_node_id_valid("a/b"));
}

int main(void) {
    RUN(test_addresses);
    RUN(test_node_ids);
    return check_finish();
}
