"""
Persistence across restarts (docs/persistence.md): moves are in the database before anyone
sees them; after a restart the games that were in progress are back with their moves and
clocks (the time the server was down is not charged), players come back with their tokens and
play on; ended games stay in the archive. Start-up failures (corrupt file, newer schema,
unusable data directory, a second server on the same directory) stop with their exit codes.
"""
import asyncio
import os
import signal
import time

from harness import play, start_game
from persist_harness import DataDir, run_data_dir_tests  # noqa: F401


async def test_moves_committed_before_announced(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b, {"minutes": 5, "increment": 3})
    for i, mv in enumerate(["e4", "e5", "Nf3", "Nc6"]):
        mover = a if i % 2 == 0 else b
        reply = await mover.move(gid, mv)
        # The reply came after the commit: the move is already in the database.
        assert data.moves(gid).get(reply["ply"], (None, None))[1] == mv, data.moves(gid)
    [(status, white, black)] = data.query(
        "SELECT status, white_name, black_name FROM games WHERE id = ?", (gid,))
    assert (status, white, black) == ("live", "Ann", "Ben")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_restart_restores_games_and_players(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    spectator = await srv.player("Sue")
    gid = await start_game(a, b, {"minutes": 5, "increment": 3})
    await play(gid, a, b, ["e4", "c5", "Nf3", "d6"])
    asked = time.monotonic()
    before = (await spectator.ok({"type": "watch", "game": gid}))["game"]
    tokens = (a.token, b.token, spectator.token)
    await srv.close_clients()
    assert srv.stop(signal.SIGTERM) == 0
    down = 3.0
    await asyncio.sleep(down)  # time the server is down: charged to nobody

    srv2 = data.start()
    a2 = await srv2.connect()
    welcome = await a2.hello(token=tokens[0])
    elapsed = time.monotonic() - asked
    assert welcome["player"]["id"] == a.player["id"] and welcome["player"]["name"] == "Ann"
    [game] = welcome["games"]
    assert game["id"] == gid and game["san"] == ["e4", "c5", "Nf3", "d6"]
    assert game["turn"] == "white" and game["status"] == "playing"
    # White's clock runs while a server runs, not while none does: between the two states it
    # lost at most the time they were apart less the 3 s down (however slow the stop and the
    # start were on a busy machine); had the time down been charged, it would have lost more.
    charged = before["clock"]["white"] - game["clock"]["white"]
    assert charged <= (elapsed - down) * 1000 + 50, (charged, elapsed, game, before)
    assert game["clock"]["white"] <= before["clock"]["white"] + 100, (game, before)
    assert game["clock"]["black"] == before["clock"]["black"]
    b2 = await srv2.player(token=tokens[1])
    assert b2.player["id"] == b.player["id"]
    watcher = await srv2.player(token=tokens[2])
    await watcher.ok({"type": "watch", "game": gid})
    await a2.move(gid, "d4")
    seen = await b2.recv_type("move", ply=5)
    assert seen["san"] == "d4"
    await watcher.recv_type("move", ply=5)
    await b2.move(gid, "cxd4")
    end = await a2.ok({"type": "resign", "game": gid})
    assert end["type"] == "game_end" and end["result"] == "0-1"
    [(status, result, reason, plies)] = data.query(
        "SELECT status, result, termination, ply_count FROM games WHERE id = ?", (gid,))
    assert (status, result, reason, plies) == ("ended", "0-1", "resignation", 6)
    assert len(data.moves(gid)) == 6
    assert data.query("SELECT count(*) FROM live_moves WHERE game_id = ?", (gid,)) == [(0,)]
    await srv2.close_clients()
    assert srv2.stop() == 0
    # Ended games are not restored.
    srv3 = data.start()
    again = await srv3.player(token=tokens[0])
    assert again.welcome["games"] == []
    await srv3.close_clients()
    assert srv3.stop() == 0


async def test_unknown_token_after_restart(data):
    srv = data.start()
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 1, "token": "NoSuchToken1234"}, "BAD_TOKEN")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_takeback_survives_restart(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b, {"minutes": 3, "increment": 0})
    await play(gid, a, b, ["d4", "d5", "c4"])
    await a.ok({"type": "takeback_propose", "game": gid})
    await b.ok({"type": "takeback_accept", "game": gid})
    assert sorted(data.moves(gid)) == [1, 2]
    await srv.close_clients()
    assert srv.stop() == 0
    srv2 = data.start()
    a2 = await srv2.player(token=a.token)
    [game] = a2.welcome["games"]
    assert game["san"] == ["d4", "d5"] and game["turn"] == "white"
    await a2.move(gid, "Nf3")
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_given_time_survives_restart(data):
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b, {"minutes": 3, "increment": 0})
    await b.error({"type": "give_time", "game": gid}, "CANNOT_GIVE_TIME")  # no clock runs yet
    await play(gid, a, b, ["e4", "e5"])
    # Black gives White (whose clock runs) 15 s; White gives Black (waiting) 15 s.
    given = await b.ok({"type": "give_time", "game": gid})
    assert given["type"] == "time_given" and given["to"] == "white" and given["ms"] == 15000, given
    seen = await a.recv_type("time_given", to="white")
    assert seen["v"] == given["v"] and 180000 < seen["clock"]["white"] <= 195000, seen
    given = await a.ok({"type": "give_time", "game": gid})
    assert given["to"] == "black" and given["clock"]["black"] == 195000, given
    await srv.close_clients()
    assert srv.stop() == 0
    # Both gifts are kept: each side's clock as of its turn's start, as after a move.
    srv2 = data.start()
    a2 = await srv2.player(token=a.token)
    [game] = a2.welcome["games"]
    assert game["clock"]["black"] == 195000, game
    assert 190000 < game["clock"]["white"] <= 195000, game
    await a2.move(gid, "Nf3")
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_startup_failures(data):
    if data.pg:
        return await startup_failures_postgresql(data)
    # A file that is not a database.
    with open(data.db, "wb") as f:
        f.write(b"this is not a database" * 200)
    status, out = data.run_binary()
    assert status == 5 and "not a database" in out, (status, out)
    os.remove(data.db)
    # A newer schema than the binary knows.
    srv = data.start()
    assert srv.stop() == 0
    import sqlite3
    con = sqlite3.connect(data.db)
    con.execute("PRAGMA user_version = 999")
    con.commit()
    con.close()
    status, out = data.run_binary()
    assert status == 6 and "schema version 999" in out, (status, out)
    assert data.query("PRAGMA user_version") == [(999,)]
    # A data directory that cannot be one.
    plain = os.path.join(data.path, "plain-file")
    with open(plain, "w") as f:
        f.write("x")
    status, out = data.run_binary("--data-dir", plain)
    assert status == 3 and "not" in out, (status, out)
    # A second server on the same data directory.
    for name in os.listdir(data.path):
        if name.startswith("chess.db"):
            os.remove(os.path.join(data.path, name))
    first = data.start()
    status, out = data.run_binary()
    assert status == 4 and "in use by another server" in out, (status, out)
    assert first.stop() == 0


async def startup_failures_postgresql(data):
    """test_startup_failures on PostgreSQL (--database): the same exit codes where the same
    thing goes wrong, and 11 for a server that cannot be reached."""
    # A migration that fails (a table in the way of the first): nothing of it is left.
    data.execute("CREATE TABLE players (x INTEGER)")
    status, out = data.run_binary()
    assert status == 7 and "migration 001_init.sql failed" in out, (status, out)
    assert data.query("SELECT count(*) FROM pg_tables WHERE tablename IN "
                      "('games', 'schema_version')") == [(0,)]
    data.execute("DROP TABLE players")
    srv = data.start()
    assert srv.stop() == 0
    data.execute("UPDATE schema_version SET version = 999")
    status, out = data.run_binary()
    assert status == 6 and "schema version 999" in out, (status, out)
    assert data.query("SELECT version FROM schema_version") == [(999,)]
    newest = len([f for f in os.listdir(MIGRATIONS) if f.endswith(".sql")])
    data.execute("UPDATE schema_version SET version = ?", (newest,))
    # A URL that cannot be one, and a server that is not there.
    status, out = data.run_binary("--database", "postgresql://[nowhere")
    assert status == 3 and "bad database URL" in out, (status, out)
    status, out = data.run_binary("--database", "postgresql://chess@127.0.0.1:1/chess")
    assert status == 11 and "cannot connect" in out, (status, out)
    # A second server on the same database (and node id).
    first = data.start()
    status, out = data.run_binary()
    assert status == 4 and "in use by another server" in out, (status, out)
    assert first.stop() == 0
    # Backups and restores are PostgreSQL's own tools'.
    status, out = data.run_binary("--restore", "/nonexistent.db")
    assert status == 2 and "pg_restore" in out, (status, out)
    status, out = data.run_binary("--backup-dir", os.path.join(data.path, "backups"))
    assert status == 2 and "cannot back itself up" in out, (status, out)


MIGRATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "migrations",
                          "postgresql")


if __name__ == "__main__":
    run_data_dir_tests(globals())
