"""
The commit gate (docs/persistence.md, "The rule: nothing is announced before it is committed"),
with every commit slowed down (--db-commit-delay-ms) so that writes really wait: a move's reply
and event go out only after the commit, while a pong or an error, which announce nothing, go
out at once on a connection that has nothing held, and keep their place behind that
connection's own held replies.
"""
import asyncio
import time

from harness import run_tests, server_args, start_game

COMMIT_DELAY_S = 2.0
DELAY = ["--db-commit-delay-ms", str(int(COMMIT_DELAY_S * 1000))]


@server_args(*DELAY)
async def test_pong_and_errors_do_not_wait_for_other_players_writes(srv):
    a, b, c = await srv.player("Ann"), await srv.player("Ben"), await srv.player("Cid")
    gid = await start_game(a, b)
    await a.send({"type": "move", "game": gid, "move": "e4", "id": 101})
    # Ann's move is handled well within this pause; its commit takes COMMIT_DELAY_S.
    await asyncio.sleep(0.3)
    sent = time.monotonic()
    # Cid has nothing held: his pong and his error go out while Ann's move waits for the disk.
    await c.send({"type": "ping", "id": 102})
    await c.send({"type": "move", "game": gid, "move": "e5", "id": 103})  # not his game
    pong = await c.recv(lambda m: m.get("id") == 102, what="the pong")
    err = await c.recv(lambda m: m.get("id") == 103, what="the error")
    answered = time.monotonic() - sent
    assert pong["type"] == "pong", pong
    assert err["type"] == "error", err
    # Held, they would have waited for Ann's commit, the rest of COMMIT_DELAY_S.
    assert answered < COMMIT_DELAY_S / 2, answered
    reply = await a.recv(lambda m: m.get("id") == 101, what="the move's reply")
    assert reply["type"] == "move", reply
    await b.recv_type("move", game=gid)


@server_args(*DELAY)
async def test_pong_keeps_its_place_behind_the_connections_held_reply(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await a.send({"type": "move", "game": gid, "move": "e4", "id": 201})
    await a.send({"type": "ping", "id": 202})
    first = await a.recv(lambda m: m.get("id") in (201, 202), what="a reply")
    second = await a.recv(lambda m: m.get("id") in (201, 202), what="the other reply")
    assert (first["id"], first["type"]) == (201, "move"), first
    assert (second["id"], second["type"]) == (202, "pong"), second


if __name__ == "__main__":
    run_tests(globals())
