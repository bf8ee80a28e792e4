"""
Database reads off the loop (docs/persistence.md, "Reads"): every read while serving runs on
the store's reader threads and is answered later. These tests slow the readers down
(--db-read-delay-ms) so answers really arrive late, then check: a client's messages sent before
its hello is answered wait for it and keep their order; connections and HTTP requests that go
away before their answer leave the server healthy; a reader failure (a table the reads need is
missing) gives STORE_UNAVAILABLE / 503 and the server recovers; a player's PGN file is streamed
in batches; /metrics shows the store's queues, batch sizes and latencies.
"""
import asyncio
import json
import re
import socket

import websockets

from harness import play, start_game, wait_for
from persist_harness import run_data_dir_tests


def http_json(srv, path):
    status, _, body = srv.http(path)
    return status, json.loads(body)


def metric(srv, name):
    """The value of one sample in /metrics (None when absent)."""
    status, _, body = srv.http("/metrics")
    assert status == 200
    m = re.search(r"^%s (\S+)$" % re.escape(name), body.decode(), re.M)
    return float(m.group(1)) if m else None


async def guest_with_game(srv):
    """Two guests who played a short game; returns (a, b, game id)."""
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5"])
    await a.ok({"type": "resign", "game": gid})
    return a, b, gid


async def restarted(data, *args):
    """A guest who played a game, then a restart with args: the guest's token is now only in
    the database. Returns (server, token, player id, game id)."""
    srv = data.start()
    a, _, gid = await guest_with_game(srv)
    token, pid = a.token, a.player["id"]
    await srv.close_clients()
    assert srv.stop() == 0
    return data.start(*args), token, pid, gid


async def test_messages_wait_for_the_hello_answer(data):
    # The token is only in the database: the hello waits for a reader.
    srv, token, pid, gid = await restarted(data, "--db-read-delay-ms", "300")
    ws = await websockets.connect(srv.url)
    burst = [
        {"type": "hello", "protocol": 1, "token": token, "id": 1},
        {"type": "ping", "id": 2},
        {"type": "games_list", "player": pid, "id": 3},
        {"type": "resign", "game": gid, "id": 4},  # over already: an error, in its turn
        {"type": "player_get", "player": pid, "id": 5},
        {"type": "ping", "id": 6},
    ]
    for m in burst:
        await ws.send(json.dumps(m))
    replies = []
    while len(replies) < len(burst):
        m = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if "id" in m:
            replies.append(m)
    assert [m["id"] for m in replies] == [1, 2, 3, 4, 5, 6], replies
    assert replies[0]["type"] == "welcome" and replies[0]["player"]["id"] == pid
    assert replies[1]["type"] == "pong"
    assert replies[2]["type"] == "games" and [g["id"] for g in replies[2]["games"]] == [gid]
    assert replies[3]["type"] == "error" and replies[3]["code"] != "HELLO_REQUIRED", replies[3]
    assert replies[4]["type"] == "player" and replies[4]["player"]["id"] == pid
    assert replies[5]["type"] == "pong"
    # An unknown token: BAD_TOKEN after the read, and what followed gets HELLO_REQUIRED.
    ws2 = await websockets.connect(srv.url)
    await ws2.send(json.dumps({"type": "hello", "protocol": 1, "token": "x" * 32, "id": 1}))
    await ws2.send(json.dumps({"type": "resign", "game": gid, "id": 2}))
    first = json.loads(await asyncio.wait_for(ws2.recv(), 10))
    second = json.loads(await asyncio.wait_for(ws2.recv(), 10))
    assert (first["id"], first["code"]) == (1, "BAD_TOKEN"), first
    assert (second["id"], second["code"]) == (2, "HELLO_REQUIRED"), second
    await ws.close()
    await ws2.close()
    assert srv.stop() == 0


async def test_too_many_messages_while_waiting(data):
    srv, token, _, _ = await restarted(data, "--db-read-delay-ms", "2000", "--rate-burst", "200",
                                       "--rate-limit", "200")
    ws = await websockets.connect(srv.url)
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "id": 0}))
    for i in range(1, 81):  # 64 wait; the rest are refused at once
        await ws.send(json.dumps({"type": "ping", "id": i}))
    got = []
    while len(got) < 81:
        got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    refused = [m["id"] for m in got if m.get("code") == "RATE_LIMITED"]
    assert refused == list(range(65, 81)), got
    answered = [m["id"] for m in got if m.get("code") != "RATE_LIMITED"]
    assert answered == list(range(0, 65)), answered
    await ws.close()
    assert srv.stop() == 0


async def test_requesters_gone_before_the_answer(data):
    srv, token, pid, gid = await restarted(data, "--db-read-delay-ms", "200")
    # WebSocket: hello and archive requests, then the connection closes at once.
    for _ in range(5):
        ws = await websockets.connect(srv.url)
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token, "id": 1}))
        await ws.send(json.dumps({"type": "game_record", "game": gid, "id": 2}))
        await ws.close()
    # HTTP: requests whose client hangs up before the answer.
    for path in ["/api/players/%s" % pid, "/api/players/%s/games.pgn" % pid,
                 "/api/games/%s.pgn" % gid]:
        s = socket.create_connection(("127.0.0.1", srv.port))
        s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
        s.close()
    # The hellos' reads are answered (and dropped) and nothing waits for a reader: a
    # game_record sent on, wrongly, after its connection's hello would be queued by now.
    def reads_settled():
        done = metric(srv, "chess_store_read_seconds_count") or 0
        return done >= 5 and metric(srv, "chess_store_read_queue_length") == 0
    await wait_for(reads_settled, timeout=15, what="the hellos' reads answered")
    # 5 hellos (the game_record behind each was dropped with its connection) and the HTTP reads
    # (lws may drop a request whose client has already hung up before reading it).
    assert 5 <= metric(srv, "chess_store_read_seconds_count") <= 8
    # The server goes on: the same token and requests work.
    back = await srv.player(token=token)
    assert back.player["id"] == pid
    r = await back.ok({"type": "game_record", "game": gid})
    assert r["game"]["id"] == gid
    status, body = http_json(srv, "/api/players/%s" % pid)
    assert status == 200 and body["id"] == pid
    log = srv.read_log()
    assert " ERROR " not in log, log[-3000:]
    await srv.close_clients()
    assert srv.stop() == 0


async def test_reader_failure_and_recovery(data):
    srv = data.start()
    a, _, gid = await guest_with_game(srv)
    pid = a.player["id"]
    # The reads of players need the ratings table: take it away under the running server.
    data.execute("ALTER TABLE ratings RENAME TO ratings_away")
    await a.error({"type": "player_get", "player": pid}, "STORE_UNAVAILABLE")
    await a.error({"type": "games_list", "player": pid}, "STORE_UNAVAILABLE")
    status, body = http_json(srv, "/api/players/%s" % pid)
    assert status == 503 and body["code"] == "STORE_UNAVAILABLE", body
    await a.ok({"type": "ping"})  # the connection stays usable
    assert metric(srv, "chess_store_read_errors_total") == 3
    # Reads that do not need it still work: a stored game.
    r = await a.ok({"type": "game_record", "game": gid})
    assert r["game"]["id"] == gid
    data.execute("ALTER TABLE ratings_away RENAME TO ratings")
    r = await a.ok({"type": "player_get", "player": pid})
    assert r["player"]["id"] == pid
    await srv.close_clients()
    assert srv.stop() == 0


async def test_pgn_file_streamed_in_batches(data):
    srv = data.start()
    a, _, gid = await guest_with_game(srv)
    pid = a.player["id"]
    # 250 more ended games (three batches of 100), written beside the running server.
    rows = [("x%07d" % i, pid, "Ann", 1000 + i) for i in range(250)]
    data.execute_many(
        "INSERT INTO games (id, white_id, white_name, black_name, status, result, termination, "
        "ply_count, created_at, ended_at) VALUES (?, ?, ?, 'Someone', 'ended', '1-0', "
        "'resign', 0, ?, ?)", [(i, p, n, t, t) for i, p, n, t in rows])
    status, headers, body = srv.http("/api/players/%s/games.pgn" % pid)
    assert status == 200
    assert "Content-Length" not in headers, headers
    text = body.decode()
    ids = re.findall(r'\[GameId "([^"]+)"\]', text)
    assert ids == [r[0] for r in rows] + [gid], (len(ids), ids[:3], ids[-3:])
    assert text.count("[Event ") == 251
    # An unknown player: 404 before anything is streamed.
    status, body = http_json(srv, "/api/players/nobody/games.pgn")
    assert status == 404 and body["code"] == "PLAYER_NOT_FOUND"
    await srv.close_clients()
    assert srv.stop() == 0


async def test_store_metrics(data):
    srv = data.start()
    a, b, gid = await guest_with_game(srv)
    await a.ok({"type": "game_record", "game": gid})
    assert metric(srv, "chess_store_readers") == 2
    assert metric(srv, "chess_store_write_queue_length") is not None
    assert metric(srv, "chess_store_read_queue_length") is not None
    assert metric(srv, "chess_store_commits_total") >= 1
    assert metric(srv, "chess_store_commit_batch_ops_count") >= 1
    assert metric(srv, "chess_store_commit_batch_ops_sum") >= 5  # 2 guests, start, 2 moves, end
    assert metric(srv, "chess_store_commit_seconds_count") >= 1
    assert metric(srv, "chess_store_write_wait_seconds_count") >= 1
    assert metric(srv, "chess_store_held_message_seconds_count") >= 1
    assert metric(srv, "chess_store_read_seconds_count") >= 1
    assert metric(srv, "chess_store_read_wait_seconds_count") >= 1
    assert metric(srv, "chess_store_transactions_failed_total") == 0
    assert metric(srv, "chess_store_read_errors_total") == 0
    assert metric(srv, 'chess_store_commit_batch_ops_bucket{le="+Inf"}') >= 1
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
