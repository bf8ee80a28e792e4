#!/bin/bash
# Container health check without curl or wget in the image: one HTTP GET over bash's /dev/tcp,
# healthy when the status is 200.
#   healthcheck.sh [path] [port]    (defaults: /healthz, $CHESS_PORT or 8080)
# The server's /healthz answers 503 while it shuts down; a refused connection or no answer
# within 4 s is unhealthy too. Exit status 0: healthy, 1: not.
set -u
path=${1:-/healthz}
port=${2:-${CHESS_PORT:-8080}}
host=127.0.0.1
case ${CHESS_LISTEN:-0.0.0.0} in
    0.0.0.0 | "::" | "") ;;
    *) host=$CHESS_LISTEN ;;
esac
if ! { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null; then
    echo "unhealthy: nothing listens on $host:$port"
    exit 1
fi
printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$path" >&3
if ! IFS= read -r -t 4 status <&3; then
    echo "unhealthy: no answer from $host:$port$path"
    exit 1
fi
case $status in
    "HTTP/1."?" 200"*) exit 0 ;;
esac
echo "unhealthy: $host:$port$path answered ${status%$'\r'}"
exit 1
