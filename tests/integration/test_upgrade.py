"""
Upgrades (docs/self-hosting.md): a database made at an earlier schema version (the files of
migrations/ up to that version, applied as the server applies them, with PRAGMA user_version),
holding an account, a game in progress and a finished game, is brought up to date by the
current server when it starts; then the account logs in, the game in progress is played on to
its end over WebSocket, and both games are in the archive. A server that finds a schema newer
than it knows (an older node after a newer one migrated) refuses to start with exit status 6
and leaves the file as it was. Nothing here depends on how many migrations there are after the
first ones.
"""
import ctypes
import ctypes.util
import hashlib
import json
import os
import re
import sqlite3

from harness import wait_for  # noqa: F401
from persist_harness import DataDir, run_data_dir_tests  # noqa: F401

MIGRATIONS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                           "migrations"))
PASSWORD = "correct horse battery"
CARLA_TOKEN = "CarlaSessionToken0123456789abcde"
DAN_TOKEN = "DanGuestToken0123456789abcdefghi"
CARLA, DAN = "CarlaPlayer1", "DanPlayer001"
LIVE, OLD = "LiveGam1", "OldGame1"  # game ids have 8 characters
T0 = 1700000000000  # ms: when the old server stored it all


def migrations():
    """[(number, path)] of migrations/, in order."""
    found = []
    for name in os.listdir(MIGRATIONS):
        m = re.match(r"^(\d+)_[a-z0-9_]+\.sql$", name)
        if m:
            found.append((int(m.group(1)), os.path.join(MIGRATIONS, name)))
    return sorted(found)


def password_hash(password):
    """An Argon2id hash in libsodium's crypto_pwhash_str format, as the server makes them."""
    sodium = ctypes.CDLL(ctypes.util.find_library("sodium") or "libsodium.so.23")
    assert sodium.sodium_init() >= 0
    for name in ("crypto_pwhash_strbytes", "crypto_pwhash_opslimit_interactive",
                 "crypto_pwhash_memlimit_interactive"):
        getattr(sodium, name).restype = ctypes.c_size_t
    out = ctypes.create_string_buffer(sodium.crypto_pwhash_strbytes())
    sodium.crypto_pwhash_str.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulonglong,
                                         ctypes.c_ulonglong, ctypes.c_size_t]
    pw = password.encode()
    assert sodium.crypto_pwhash_str(out, pw, len(pw), sodium.crypto_pwhash_opslimit_interactive(),
                                    sodium.crypto_pwhash_memlimit_interactive()) == 0
    return out.value.decode()


def token_hash(token):
    """BLAKE2b-256 of the token, as the server stores tokens."""
    return hashlib.blake2b(token.encode(), digest_size=32).digest()


def make_database(path, version):
    """A database at schema `version`: migrations 1..version in one transaction with
    PRAGMA user_version, as the server applies them, then an account (Carla), a guest (Dan),
    their tokens, a finished game and a game in progress, in that version's columns."""
    script = "BEGIN IMMEDIATE;\n"
    for number, file in migrations():
        if number <= version:
            with open(file) as f:
                script += f.read() + "\n;\nPRAGMA user_version = %d;\n" % number
    script += "COMMIT;\n"
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.executescript(script)
        assert con.execute("PRAGMA user_version").fetchone()[0] == version
        con.execute("BEGIN")
        con.execute("INSERT INTO players (id, name, username, password_hash, created_at, "
                    "registered_at) VALUES (?, 'Carla', 'carla', ?, ?, ?)",
                    (CARLA, password_hash(PASSWORD), T0, T0))
        con.execute("INSERT INTO players (id, name, created_at) VALUES (?, 'Dan', ?)", (DAN, T0))
        for token, player in ((CARLA_TOKEN, CARLA), (DAN_TOKEN, DAN)):
            con.execute("INSERT INTO tokens (hash, player_id, kind, created_at) "
                        "VALUES (?, ?, 'session', ?)", (token_hash(token), player, T0))
        game = ("INSERT INTO games (id, white_id, black_id, white_name, black_name, initial_ms, "
                "increment_ms, category, rated, status, result, termination, ply_count, "
                "created_at, ended_at) VALUES (?, ?, ?, 'Carla', 'Dan', 300000, 0, 'blitz', 0, "
                "?, ?, ?, ?, ?, ?)")
        con.execute(game, (OLD, CARLA, DAN, "ended", "1-0", "checkmate", 7, T0, T0 + 9000))
        con.execute(game, (LIVE, CARLA, DAN, "live", None, None, None, T0 + 10000, None))
        mate = [("e2e4", "e4"), ("e7e5", "e5"), ("f1c4", "Bc4"), ("b8c6", "Nc6"),
                ("d1h5", "Qh5"), ("g8f6", "Nf6"), ("h5f7", "Qxf7#")]
        for table, gid, moves in (("moves", OLD, mate), ("live_moves", LIVE, mate[:1] + [
                ("e7e5", "e5"), ("d1h5", "Qh5")])):
            for ply, (uci, san) in enumerate(moves, 1):
                con.execute("INSERT INTO %s (game_id, ply, uci, san, clock_ms, spent_ms, "
                            "played_at) VALUES (?, ?, ?, ?, ?, 1000, ?)" % table,
                            (gid, ply, uci, san, 300000 - 1000 * ((ply + 1) // 2), T0 + ply))
        con.execute("COMMIT")
    finally:
        con.close()


def http_json(srv, path):
    status, _, body = srv.http(path)
    return status, json.loads(body)


async def upgrade_from(data, version):
    latest = migrations()[-1][0]
    assert latest >= version
    make_database(data.db, version)
    srv = data.start()
    # The start migrated the file, all pending migrations at once.
    assert data.query("PRAGMA user_version") == [(latest,)]
    log = srv.read_log()
    if latest > version:
        assert "applied %d migration(s), schema version %d" % (latest - version, latest) in log
    else:
        assert "applied" not in log
    # The guest comes back with its token, the account logs in with its password.
    dan = await srv.player(token=DAN_TOKEN)
    assert dan.player["id"] == DAN
    [live] = dan.welcome["games"]
    assert live["id"] == LIVE and live["san"] == ["e4", "e5", "Qh5"], live
    assert live["turn"] == "black" and live["status"] == "playing"
    carla = await srv.connect()
    session = await carla.ok({"type": "login", "username": "Carla", "password": PASSWORD})
    assert session["type"] == "session" and session["player"]["id"] == CARLA, session
    await carla.hello(token=session["token"])
    assert [g["id"] for g in carla.welcome["games"]] == [LIVE]
    old_session = await srv.player(token=CARLA_TOKEN)
    assert old_session.player["id"] == CARLA
    await carla.error({"type": "login", "username": "carla", "password": "wrong password"},
                      "LOGIN_FAILED")
    # The game goes on to its end.
    await dan.move(LIVE, "Nc6")
    await carla.move(LIVE, "Bc4")
    await dan.move(LIVE, "Nf6")
    await carla.move(LIVE, "Qxf7#")
    end = await dan.recv_type("game_end", game=LIVE)
    assert end["result"] == "1-0" and end["reason"] == "checkmate", end
    await srv.close_clients()
    assert srv.stop() == 0
    # Both games in the archive, read from the database by a new server.
    srv2 = data.start()
    for gid in (OLD, LIVE):
        status, g = http_json(srv2, "/api/games/%s" % gid)
        g = g.get("game", g)
        assert status == 200 and g["status"] == "ended" and g["result"] == "1-0", g
        assert g["san"][-1] == "Qxf7#" and len(g["san"]) == 7, g
    status, _, pgn = srv2.http("/api/games/%s.pgn" % OLD)
    assert status == 200 and b"Qxf7#" in pgn and b'[White "Carla"]' in pgn, pgn
    status, games = http_json(srv2, "/api/players/%s/games" % CARLA)
    assert status == 200 and {g["id"] for g in games["games"]} == {OLD, LIVE}, games
    assert srv2.stop() == 0

    # An older server (one that knows fewer migrations) refuses the newer schema and changes
    # nothing: exit status 6.
    con = sqlite3.connect(data.db)
    con.execute("PRAGMA user_version = %d" % (latest + 1))
    con.commit()
    con.close()
    with open(data.db, "rb") as f:
        before = hashlib.sha256(f.read()).hexdigest()
    status, out = data.run_binary()
    assert status == 6 and "schema version %d" % (latest + 1) in out, (status, out)
    with open(data.db, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == before
    assert data.query("PRAGMA user_version") == [(latest + 1,)]


async def test_upgrade_from_schema_4(data):
    """The first released schema versions end at 004."""
    await upgrade_from(data, 4)


async def test_upgrade_from_schema_1(data):
    """Every migration after the first on a database with data in it."""
    await upgrade_from(data, 1)


if __name__ == "__main__":
    run_data_dir_tests(globals())
