"""
500 concurrent event streams of the HTTP API (docs/http-api.md) on one node, held for 60 s with
the server's memory measured. 500 bot accounts (25 owners of 20 bots, made over the WebSocket
protocol) each open /api/stream/event on a raw asyncio socket, 50 a second: the per-address
limit of server/src/app/httpapi.c (400 at once, then 100 a second) would rightly answer 429 to
part of a burst of 500. While they are held, every stream gets a newline (or a line) at least
every 7 s (with half a second of slack), plain requests are answered, and challenges to three
streamed bots reach their streams and no other. Then every stream is cut and the connection
count of /healthz returns to what it was. Printed, not asserted: the server's RSS (VmRSS)
before opening, after opening and at the end with KiB per stream, the gaps between
keep-alives, and the answer times.
"""
import asyncio
import json
import resource
import time

from harness import *
from lichess_api import Api

STREAMS = 500
BOTS_PER_OWNER = 20  # BOTS_PER_ACCOUNT, server/src/app/bots.h
OPEN_PER_S = 50      # half of the per-address API limit's rate (ADDR_PER_S)
HOLD_S = 60
# lichess's clients expect a newline every 7 s or so. The server sends one when 5 to 6 s pass
# without text (checked each second); the test allows 7 s and half a second more for two busy
# processes on a small machine.
WINDOW_S = 7
SLACK_S = 0.5


def rss_kib(pid):
    """The process's resident set (VmRSS) in KiB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for pid %d" % pid)


class EventStream:
    """/api/stream/event on a raw socket (HTTP/1.1, chunked): the time of every chunk, the
    NDJSON lines in a queue, and when (if ever) the server ended it."""

    def __init__(self, port, token, bot_id):
        self.port = port
        self.token = token
        self.bot_id = bot_id
        self.status = None
        self.received = []  # monotonic times of every chunk: keep-alive newlines and lines
        self.keepalives = 0
        self.lines = asyncio.Queue()
        self.ended = None
        self.writer = None
        self.task = None

    async def open(self):
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(("GET /api/stream/event HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                           "Authorization: Bearer %s\r\n\r\n" % (self.port, self.token)).encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        lines = head.decode().split("\r\n")
        self.status = int(lines[0].split()[1])
        headers = dict(l.lower().split(": ", 1) for l in lines[1:] if l)
        if self.status != 200:
            self.writer.close()
            return
        assert headers["content-type"] == "application/x-ndjson", headers
        assert headers["transfer-encoding"] == "chunked", headers
        self.task = asyncio.create_task(self._read(reader))

    async def _read(self, reader):
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                data = (await reader.readexactly(size + 2))[:-2]
                self.received.append(time.monotonic())
                for line in data.split(b"\n"):
                    if line.strip():
                        self.lines.put_nowait(json.loads(line))
                if not data.strip():
                    self.keepalives += 1
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            pass
        self.ended = time.monotonic()

    async def next_type(self, kind, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while True:
            line = await asyncio.wait_for(self.lines.get(), max(0.01, deadline - time.monotonic()))
            if line.get("type") == kind:
                return line

    def largest_gap(self, start, end):
        """The longest time in [start, end) in which nothing arrived."""
        times = [start] + [r for r in self.received if start <= r < end] + [end]
        return max(b - a for a, b in zip(times, times[1:]))

    async def close(self):
        if self.writer:
            self.writer.close()
        if self.task:
            await asyncio.wait_for(self.task, TIMEOUT)


async def make_owner(srv, owner_index):
    """A registered owner, connected."""
    name = "LoadOwner%02d" % owner_index
    owner = await srv.player(name)
    await owner.ok({"type": "register", "username": name, "password": "password " + name})
    return owner


async def make_bots(srv, owner, owner_index, count):
    """An owner's bots: [(token, id, name)]; the owner is disconnected afterwards."""
    bots = []
    for i in range(count):
        created = await owner.ok({"type": "bot_create",
                                  "username": "LoadBot%02dx%02d" % (owner_index, i)})
        bots.append((created["token"], created["bot"]["id"], created["bot"]["name"]))
    await owner.close()
    srv.clients.remove(owner)
    return bots


def connections(srv):
    return srv.health()[1]["connections"]


async def timed_get(api, path):
    """A plain API request while the streams are held: (status, seconds)."""
    t0 = time.monotonic()
    status, _, _ = await asyncio.to_thread(api.request, "GET", path)
    return status, time.monotonic() - t0


@time_limit(300)
async def test_500_event_streams_held_60s(srv):
    # This process holds a socket per stream (the server raises its own limit for
    # --max-connections at start).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2 * STREAMS:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4 * STREAMS), hard))
    pid = srv.proc.pid
    challenger = await srv.player("Challenger")
    base = await asyncio.to_thread(connections, srv)
    t0 = time.monotonic()
    owners = (STREAMS + BOTS_PER_OWNER - 1) // BOTS_PER_OWNER
    # One registration at a time: the server hashes passwords on one thread (Argon2id, tens of
    # milliseconds each), so 25 at once would make the last wait for all the others.
    owner_clients = [await make_owner(srv, i) for i in range(owners)]
    made = await asyncio.gather(*(
        make_bots(srv, owner, i, min(BOTS_PER_OWNER, STREAMS - i * BOTS_PER_OWNER))
        for i, owner in enumerate(owner_clients)))
    bots = [b for group in made for b in group]
    assert len(bots) == STREAMS
    print("%d bot accounts made in %.1fs" % (STREAMS, time.monotonic() - t0))
    await wait_for(lambda: connections(srv) == base, what="the owners' connections to close")
    rss_before = rss_kib(pid)

    # Open the streams, paced.
    streams = [EventStream(srv.port, token, bot_id) for token, bot_id, _ in bots]
    t0 = time.monotonic()
    opening = []
    for s in streams:
        opening.append(asyncio.create_task(s.open()))
        await asyncio.sleep(1 / OPEN_PER_S)
    await asyncio.gather(*opening)
    refused = [(s.bot_id, s.status) for s in streams if s.status != 200]
    assert not refused, "streams refused: %s" % refused[:10]
    print("%d streams opened in %.1fs" % (STREAMS, time.monotonic() - t0))
    assert await asyncio.to_thread(connections, srv) == base + STREAMS
    rss_open = rss_kib(pid)

    # Hold them; meanwhile plain requests, and challenges to three of the bots.
    hold_start = time.monotonic()
    plain = Api(srv.port)
    answers = []
    challenged = {}
    for k in range(1, HOLD_S // 10 + 1):
        await asyncio.sleep(max(0, hold_start + 10 * k - 5 - time.monotonic()))
        for path in ("/healthz", "/api/user/" + bots[k * 37 % STREAMS][2]):
            status, seconds = await timed_get(plain, path)
            assert status == 200, (path, status)
            answers.append(seconds)
        if k == 3:
            for i in (0, STREAMS // 2, STREAMS - 1):
                s = streams[i]
                sent = time.monotonic()
                created = await challenger.ok({"type": "challenge_create", "player": s.bot_id,
                                               "time": {"minutes": 5, "increment": 0}})
                cid = created["challenge"]["id"]
                line = await s.next_type("challenge")
                assert line["challenge"]["id"] == cid, line
                challenged[i] = time.monotonic() - sent
                await challenger.ok({"type": "challenge_cancel", "challenge": cid})
                line = await s.next_type("challengeCanceled")
                assert line["challenge"]["id"] == cid, line
    await asyncio.sleep(max(0, hold_start + HOLD_S - time.monotonic()))
    hold_end = time.monotonic()
    rss_end = rss_kib(pid)

    ended = [s.bot_id for s in streams if s.ended is not None]
    assert not ended, "streams ended by the server while held: %s" % ended[:10]
    gaps = sorted((s.largest_gap(hold_start, hold_end), s.bot_id) for s in streams)
    silent = [(round(g, 2), b) for g, b in gaps if g > WINDOW_S + SLACK_S]
    others = [s.bot_id for i, s in enumerate(streams)
              if i not in challenged and not s.lines.empty()]
    keepalives = sorted(s.keepalives for s in streams)

    print("server RSS: %d KiB before opening, %d KiB with %d streams open, %d KiB after %ds"
          % (rss_before, rss_open, STREAMS, rss_end, HOLD_S))
    print("per stream: %.1f KiB after opening, %.1f KiB at the end"
          % ((rss_open - rss_before) / STREAMS, (rss_end - rss_before) / STREAMS))
    print("keep-alives per stream in %ds: min %d, max %d; largest gap per stream: median %.2fs, "
          "max %.2fs" % (HOLD_S, keepalives[0], keepalives[-1], gaps[len(gaps) // 2][0],
                         gaps[-1][0]))
    print("plain requests while held: %d, slowest %.3fs; challenge to stream: %s"
          % (len(answers), max(answers),
             ", ".join("%.1f ms" % (1000 * challenged[i]) for i in sorted(challenged))))
    assert not silent, "%d streams had more than %ss with nothing: %s" % (
        len(silent), WINDOW_S + SLACK_S, silent[:10])
    assert not others, "lines on streams nobody challenged: %s" % others[:10]

    # Cut them all: the server notices, and its connection count is what it was.
    await asyncio.gather(*(s.close() for s in streams))
    await wait_for(lambda: connections(srv) == base, timeout=15,
                   what="the streams' connections to close")
    print("server RSS after the streams closed: %d KiB" % rss_kib(pid))


if __name__ == "__main__":
    run_tests(globals())
