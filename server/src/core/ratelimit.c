/* Token bucket arithmetic. */
#include "core/ratelimit.h"

void ratelimit_init(struct ratelimit *limit, double burst, double per_second, int64_t now_ms) {
    *limit = (struct ratelimit){
        .tokens = burst, .burst = burst, .per_ms = per_second / 1000.0, .last_ms = now_ms};
}

bool ratelimit_take(struct ratelimit *limit, double cost, int64_t now_ms) {
    if (now_ms > limit->last_ms) {
        limit->tokens += (double)(now_ms - limit->last_ms) * limit->per_ms;
        if (limit->tokens > limit->burst) limit->tokens = limit->burst;
        limit->last_ms = now_ms;
    }
    if (limit->tokens < cost) return false;
    limit->tokens -= cost;
    return true;
}
