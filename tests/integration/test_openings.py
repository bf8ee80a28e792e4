#!/usr/bin/env python3
"""
Opening names (docs/openings.md) on the real server with Debian's scid.eco (scid-data; the test
is skipped, exit 77, without it): a game that reaches the Najdorf and leaves the table has
"B90 Sicilian: Najdorf" at ply 10 in its game state, in the archive (games, game_record), in
every PGN export ([ECO], [Opening]) and in lichess's NDJSON export with opening=true; imported
games from the standard start are named, from a FEN not; opening_lookup answers lines from any
start, by position (transpositions), and refuses a bad FEN or move with its code. Then a small
table of our own with a bad entry (skipped, counted in the log), names turned off, and a named
file that cannot be read stopping the start.

    /usr/bin/python3 tests/integration/test_openings.py --server build/release/server/chess_server
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

from harness import *

SCID_ECO = "/usr/share/scid/data/scid.eco"
NAJDORF = ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"]
NAJDORF_OPENING = {"eco": "B90", "name": "Sicilian: Najdorf", "ply": 10}

# A table of our own: one good entry, one whose code is no ECO code (skipped and counted).
TABLE_DIR = tempfile.mkdtemp(prefix="chess-openings-")
TABLE = os.path.join(TABLE_DIR, "small.eco")
with open(TABLE, "w") as f:
    f.write('# two entries\nB00a "Our King\'s Pawn"  1.e4 *\nZ99 "Not a code"  1.d4 *\n')


def get(srv, path, accept=None):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (srv.port, path))
    if accept:
        req.add_header("Accept", accept)
    with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
        return r.status, r.read().decode()


def check_pgn_tags(text, opening=NAJDORF_OPENING):
    assert '[ECO "%s"]' % opening["eco"] in text, text
    assert '[Opening "%s"]' % opening["name"] in text, text


async def test_game_named_everywhere(srv):
    alice, bob = await srv.player("Alice"), await srv.player("Bob")
    await alice.ok({"type": "register", "username": "alice", "password": "password alice"})
    gid = await start_game(alice, bob)
    # The Najdorf, then 6.Rg1 b5: the game leaves the table after ply 10.
    await play(gid, alice, bob, NAJDORF + ["h1g1", "b7b5"])
    watcher = await srv.player("Carol")
    state = (await watcher.ok({"type": "watch", "game": gid}))["game"]
    assert state["opening"] == NAJDORF_OPENING, state
    # In memory after its end: the export's PGN.
    await alice.ok({"type": "resign", "game": gid})
    await bob.recv_type("game_end")
    status, pgn = get(srv, "/api/games/%s.pgn" % gid)
    assert status == 200
    check_pgn_tags(pgn)
    status, pgn = get(srv, "/game/export/%s" % gid)
    assert status == 200
    check_pgn_tags(pgn)
    # Stored: the archive over WebSocket, the player's PGN file, lichess's export.
    page = await alice.ok({"type": "games_list", "player": alice.player["id"]})
    assert [g["opening"] for g in page["games"]] == [NAJDORF_OPENING], page
    record = (await alice.ok({"type": "game_record", "game": gid}))["game"]
    assert record["opening"] == NAJDORF_OPENING, record
    status, pgn = get(srv, "/api/players/%s/games.pgn" % alice.player["id"])
    assert status == 200 and pgn.count("[Event ") == 1
    check_pgn_tags(pgn)
    status, pgn = get(srv, "/api/games/user/alice")
    assert status == 200
    check_pgn_tags(pgn)
    status, body = get(srv, "/api/games/user/alice?opening=true", "application/x-ndjson")
    games = [json.loads(line) for line in body.splitlines()]
    assert len(games) == 1 and games[0]["opening"] == NAJDORF_OPENING, games
    status, body = get(srv, "/api/games/user/alice", "application/x-ndjson")
    assert "opening" not in json.loads(body.splitlines()[0]), body  # as lichess: asked for
    # A game that has not reached a named position has none.
    gid2 = await start_game(alice, bob)
    state = (await watcher.ok({"type": "watch", "game": gid2}))["game"]
    assert "opening" not in state, state
    await alice.ok({"type": "abort", "game": gid2})


async def test_imported_games(srv):
    ann = await srv.player("Ann")
    opera = ('[White "Morphy"]\n[Black "Duke Karl"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 '
             '5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 1-0\n')
    gid = (await ann.ok({"type": "pgn_import", "pgn": opera}))["game"]
    record = (await ann.ok({"type": "game_record", "game": gid}))["game"]
    opening = record["opening"]
    assert opening["eco"] == "C41" and "Philidor" in opening["name"], opening
    looked_up = await ann.ok({"type": "opening_lookup", "moves": record["san"]})
    assert looked_up["opening"] == opening, (looked_up, opening)
    status, pgn = get(srv, "/api/games/%s.pgn" % gid)
    check_pgn_tags(pgn, opening)
    # The same moves after 1.e4 set up by a FEN: no name (only games from the start have one).
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    text = '[FEN "%s"]\n[SetUp "1"]\n\n1... e5 2. Nf3 d6 *\n' % fen
    gid = (await ann.ok({"type": "pgn_import", "pgn": text}))["game"]
    record = (await ann.ok({"type": "game_record", "game": gid}))["game"]
    assert "opening" not in record, record
    status, pgn = get(srv, "/api/games/%s.pgn" % gid)
    assert "[ECO " not in pgn and "[Opening " not in pgn, pgn


async def test_opening_lookup(srv):
    c = await srv.player("Dan")
    r = await c.ok({"type": "opening_lookup", "moves": NAJDORF[:6] + ["f3d4", "g8f6", "b1c3", "a6"]})
    assert r == {"type": "opening", "opening": NAJDORF_OPENING, "id": r["id"]}, r
    # By position: both move orders reach the same named position.
    a = await c.ok({"type": "opening_lookup", "moves": ["d4", "Nf6", "c4", "e6"]})
    b = await c.ok({"type": "opening_lookup", "moves": ["c2c4", "e7e6", "d2d4", "g8f6"]})
    assert a["opening"] == b["opening"] and a["opening"]["ply"] == 4, (a, b)
    assert a["opening"]["eco"].startswith("E"), a
    # From a FEN: the start itself counts (ply 0); no moves and no FEN: nothing named.
    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    r = await c.ok({"type": "opening_lookup", "fen": after_e4})
    assert r["opening"]["eco"] == "B00" and r["opening"]["ply"] == 0, r
    r = await c.ok({"type": "opening_lookup", "fen": after_e4, "moves": ["c5"]})
    assert r["opening"]["eco"] == "B20" and r["opening"]["ply"] == 1, r
    assert (await c.ok({"type": "opening_lookup"}))["opening"] is None
    r = await c.ok({"type": "opening_lookup", "fen": "8/8/8/4k3/8/8/4K3/8 w - - 0 1",
                    "moves": ["Kd2"]})
    assert r["opening"] is None, r
    # Refusals, each with its code; the connection goes on.
    await c.error({"type": "opening_lookup", "fen": "not a fen"}, "FEN_INVALID")
    await c.error({"type": "opening_lookup", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "FEN_INVALID")
    await c.error({"type": "opening_lookup", "moves": ["e4", "e4"]}, "ILLEGAL_MOVE")
    await c.error({"type": "opening_lookup", "moves": ["e4", "zz9"]}, "ILLEGAL_MOVE")
    await c.error({"type": "opening_lookup", "moves": "e4 e5"}, "BAD_FIELD")
    assert (await c.ok({"type": "opening_lookup", "moves": ["e4"]}))["opening"]["eco"] == "B00"


@server_args("--openings", TABLE)
async def test_own_table_with_a_bad_entry(srv):
    log = srv.read_log()
    assert "1 entries, 1 positions named, 0 repeated, 1 skipped" in log, log
    assert "entries skipped (the first at line 3)" in log, log
    c = await srv.player("Eve")
    r = await c.ok({"type": "opening_lookup", "moves": ["e4", "e5"]})
    assert r["opening"] == {"eco": "B00", "name": "Our King's Pawn", "ply": 1}, r
    assert (await c.ok({"type": "opening_lookup", "moves": ["d4"]}))["opening"] is None


@server_args("--openings", "")
async def test_names_off(srv):
    assert "no opening names" in srv.read_log()
    a, b = await srv.player("Fay"), await srv.player("Gus")
    gid = await start_game(a, b)
    await play(gid, a, b, NAJDORF)
    state = (await a.ok({"type": "watch", "game": gid}))["game"]
    assert "opening" not in state, state
    r = await a.ok({"type": "opening_lookup", "moves": NAJDORF})
    assert r["opening"] is None, r
    status, pgn = get(srv, "/api/games/%s.pgn" % gid)
    assert "[ECO " not in pgn, pgn


async def test_unreadable_file_stops_the_start(srv):
    """A file named on purpose that cannot be read: exit 2 before the port is taken."""
    data = tempfile.mkdtemp(prefix="chess-openings-data-")
    port = free_port()
    proc = subprocess.run([srv.binary, "--port", str(port), "--data-dir", data, "--openings",
                           os.path.join(TABLE_DIR, "missing.eco")],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "cannot read openings file" in proc.stderr, proc.stderr
    assert "listening" not in proc.stdout + proc.stderr


if __name__ == "__main__":
    if not os.path.exists(SCID_ECO):
        print("SKIP: %s is missing (Debian package scid-data, scripts/setup.sh)" % SCID_ECO)
        sys.exit(77)
    try:
        run_tests(globals())
    finally:
        shutil.rmtree(TABLE_DIR, ignore_errors=True)
