"""
A protocol fuzzer against the live server (tests/fuzz/README.md): many raw connections, each
speaking WebSocket by hand so that the frames themselves can be wrong, send mutated messages
(the proto corpus, with a real game's id) and broken frames (reserved bits, unknown opcodes,
unmasked or oversized control frames, lying lengths, bad continuations, invalid UTF-8, binary),
and drop the connection at random points, mid-frame included. Meanwhile /healthz must keep
answering, and at the end the server must stop cleanly on SIGTERM with exit status 0 (built with
ASan, that also means no leak and no memory error) and no sanitizer report in its log.

    python3 tests/fuzz/live_fuzz.py --server build/asan/server/chess_server --messages 20000
    python3 tests/fuzz/live_fuzz.py --server build/asan/server/chess_server --messages 1000000

Prints what it sent and the rate. Exit 0 when the server held, 1 otherwise.
"""
import argparse
import asyncio
import base64
import json
import os
import random
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from harness import Server, mutate  # noqa: E402

CORPUS = os.path.join(HERE, "corpus", "proto")
CORPUS_GAME_ID = "L43JIUo2"  # the game id the corpus's messages name
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                   "UndefinedBehaviorSanitizer")


class Counts:
    def __init__(self):
        self.sent = {}
        self.connections = 0
        self.closed_by_server = 0

    def add(self, kind):
        self.sent[kind] = self.sent.get(kind, 0) + 1

    def total(self):
        return sum(self.sent.values())


def frame(opcode, payload, fin=True, rsv=0, mask=True, length=None):
    """One WebSocket frame; length: the length to claim (default: the true one)."""
    n = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    m = 0x80 if mask else 0
    if n < 126:
        head += bytes([m | n])
    elif n < 65536:
        head += bytes([m | 126]) + struct.pack(">H", n)
    else:
        head += bytes([m | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def broken_frame(rng):
    """(kind, bytes) of a frame that breaks the protocol in one way."""
    text = b'{"type":"ping"}'
    choice = rng.randrange(11)
    if choice == 0:
        return "rsv_bits", frame(1, text, rsv=rng.randint(1, 7))
    if choice == 1:
        return "unknown_opcode", frame(rng.choice([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), text)
    if choice == 2:
        return "unmasked", frame(1, text, mask=False)
    if choice == 3:
        return "big_control", frame(9, os.urandom(200))
    if choice == 4:
        return "fragmented_control", frame(9, b"x", fin=False)
    if choice == 5:
        return "stray_continuation", frame(0, text)
    if choice == 6:
        return "bad_utf8", frame(1, b'{"type":"chat","text":"\xff\xfe\xc0"}')
    if choice == 7:
        return "binary", frame(2, os.urandom(rng.randint(0, 300)))
    if choice == 8:
        # A text message in pieces, with a ping between them (allowed), or a new text frame
        # before the end (not allowed).
        half = len(text) // 2
        middle = frame(9, b"p") if rng.random() < 0.5 else frame(1, b"{}")
        return "fragments", frame(1, text[:half], fin=False) + middle + frame(0, text[half:])
    if choice == 9:
        code = rng.choice([0, 999, 1004, 1005, 1006, 1016, 2999, 5000, 65535])
        return "bad_close", frame(8, struct.pack(">H", code) + b"\xff" * rng.randint(0, 3))
    return "huge_length", frame(1, b"{", length=rng.choice([1 << 20, 1 << 31, (1 << 63) - 1]))


class Conn:
    """One raw connection: the upgrade by hand, then whatever bytes the fuzzer writes."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n" % (self.port, key)).encode())
        await self.writer.drain()
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 10)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head[:80])

    async def send(self, data):
        self.writer.write(data)
        await self.writer.drain()

    async def drain_replies(self):
        """Reads what has arrived, without waiting; False once the server closed."""
        try:
            data = await asyncio.wait_for(self.reader.read(65536), 0.001)
        except asyncio.TimeoutError:
            return True
        return bool(data)

    def abort(self):
        if self.writer:
            self.writer.transport.abort()


async def worker(port, rng, seeds, budget, counts):
    conn = None
    while budget[0] > 0:
        try:
            if conn is None:
                conn = Conn(port)
                await conn.open()
                counts.connections += 1
                hello = {"type": "hello", "protocol": 1, "id": 1}
                await conn.send(frame(1, json.dumps(hello).encode()))
            budget[0] -= 1
            r = rng.random()
            if r < 0.55:
                counts.add("mutated")
                await conn.send(frame(1, mutate(rng, rng.choice(seeds)).encode("utf-8", "replace")))
            elif r < 0.75:
                counts.add("corpus")
                await conn.send(frame(1, rng.choice(seeds).encode("utf-8", "replace")))
            elif r < 0.93:
                kind, data = broken_frame(rng)
                counts.add(kind)
                await conn.send(data)
            else:
                # Gone mid-frame: a header and part of the payload, then the socket closes.
                counts.add("cut_mid_frame")
                data = frame(1, rng.choice(seeds).encode("utf-8", "replace"))
                await conn.send(data[: rng.randint(1, max(1, len(data) - 1))])
                conn.abort()
                conn = None
                continue
            if not await conn.drain_replies():
                counts.closed_by_server += 1
                conn.abort()
                conn = None
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            counts.closed_by_server += 1
            if conn:
                conn.abort()
            conn = None
    if conn:
        conn.abort()


async def until_done(srv, tasks):
    """Waits for the workers, /healthz answering every 2 s meanwhile; then once more."""
    next_check = time.time()
    while not all(t.done() for t in tasks):
        await asyncio.sleep(0.2)
        if time.time() >= next_check:
            status, _, _ = await asyncio.to_thread(srv.http, "/healthz")
            assert status == 200, "healthz answered %s" % status
            next_check = time.time() + 2
    for t in tasks:
        t.result()  # raises what a worker could not handle
    status, _, _ = srv.http("/healthz")
    assert status == 200, "healthz answered %s after the run" % status


def stop_clean(srv):
    """Stops the server with SIGTERM: it must exit 0 (built with ASan: no leak, no memory
    error) with no sanitizer report in its log."""
    rc = srv.stop(timeout=60)
    log = srv.read_log()
    reports = [line for line in log.splitlines() if any(m in line for m in SANITIZER_MARKS)]
    assert rc == 0, "server exit status %s after SIGTERM:\n%s" % (rc, log[-4000:])
    assert not reports, "sanitizer reports:\n" + "\n".join(reports[:20])


async def real_game(srv):
    """Two players with a game in progress, so that game messages reach a game."""
    import websockets
    a = await websockets.connect(srv.url)
    b = await websockets.connect(srv.url)
    for ws in (a, b):
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "id": 1}))
        await ws.recv()
    await a.send(json.dumps({"type": "challenge_create", "time": {"minutes": 60, "increment": 0},
                             "color": "white", "id": 2}))
    while True:
        m = json.loads(await a.recv())
        if m.get("id") == 2:
            break
    await b.send(json.dumps({"type": "challenge_accept", "challenge": m["challenge"]["id"],
                             "id": 3}))
    while True:
        m = json.loads(await b.recv())
        if m.get("id") == 3:
            return a, b, m["game"]["id"]


async def run(args):
    srv = Server(args.server, ["--log-level", "warn", "--rate-limit", "100000", "--rate-burst",
                               "100000", "--abuse-limit", "100000", "--max-message", "65536"])
    ok = False
    try:
        a, b, gid = await real_game(srv)
        seeds = []
        for name in sorted(os.listdir(CORPUS)):
            with open(os.path.join(CORPUS, name), "rb") as f:
                seeds.append(f.read().decode("utf-8", "replace").replace(CORPUS_GAME_ID, gid))
        rng = random.Random(args.seed)
        counts = Counts()
        budget = [args.messages]
        start = time.time()
        tasks = [asyncio.create_task(worker(srv.port, random.Random(rng.random()), seeds, budget,
                                            counts)) for _ in range(args.clients)]
        await until_done(srv, tasks)
        took = time.time() - start
        await a.close()
        await b.close()
        print("live fuzz: %d messages and frames over %d connections in %.1f s (%.0f/s), %d "
              "closed by the server; seed %d" % (counts.total(), counts.connections, took,
                                                  counts.total() / took, counts.closed_by_server,
                                                  args.seed))
        print("  " + ", ".join("%s %d" % kv for kv in sorted(counts.sent.items())))
        stop_clean(srv)
        ok = True
    finally:
        if not ok:
            print(srv.read_log()[-6000:])
        srv.close()
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", required=True)
    p.add_argument("--messages", type=int, default=20000)
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--seed", type=int, default=int(time.time()))
    args = p.parse_args()
    sys.exit(0 if asyncio.run(run(args)) else 1)


if __name__ == "__main__":
    main()
