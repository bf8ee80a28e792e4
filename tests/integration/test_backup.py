"""
Online backups and restores (docs/self-hosting.md) with the real server, real database files
and real WebSocket clients: backups taken every second while games are played hold every move
acknowledged before the instant in their names, are whole whenever they carry a final name, and
only the newest --backup-keep stay; a restored backup serves its games, players and archive to
a new server, and play goes on. A backup that fails is logged and counted and the server goes
on. Bad backup flags stop the start with exit status 2; a restore refuses a missing file (10), a
damaged one (5), a newer schema (6), a data directory in use (4), one that holds a database (9)
and one that cannot be one (3), and changes nothing then.
"""
import asyncio
import calendar
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time

from harness import start_game, wait_for
from persist_harness import LONG_GAME, DataDir, run_data_dir_tests  # noqa: F401

BACKUP_NAME = re.compile(r"^chess-(\d{8}T\d{6})\.(\d{3})Z\.db$")


def backup_time(name):
    """The instant in a backup's name, in seconds since the epoch."""
    m = BACKUP_NAME.match(name)
    assert m, name
    return calendar.timegm(time.strptime(m.group(1), "%Y%m%dT%H%M%S")) + int(m.group(2)) / 1000


def backups(directory):
    """The final names in a backup directory, oldest first."""
    return sorted(n for n in os.listdir(directory) if BACKUP_NAME.match(n))


def metrics(srv):
    """One scrape of /metrics: {name: value} of the lines without labels."""
    _, _, body = srv.http("/metrics")
    return {line.split()[0]: float(line.split()[1]) for line in body.decode().splitlines()
            if line and not line.startswith("#") and "{" not in line}


def metric(srv, name):
    value = metrics(srv).get(name)
    assert value is not None, "no %s in /metrics" % name
    return value


def restore(data, backup, target):
    """Runs chess_server --restore; returns (status, output)."""
    p = subprocess.run([data.binary, "--restore", backup, "--data-dir", target],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return p.returncode, p.stdout.decode(errors="replace")


def check_whole(path):
    """A backup under its final name is a whole database (or already deleted by retention)."""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        try:
            verdict = con.execute("PRAGMA quick_check").fetchone()[0]
            moves = con.execute("SELECT count(*) FROM live_moves").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        if not os.path.exists(path):
            return False
        raise
    assert verdict == "ok", (path, verdict)
    return moves >= 0


async def watch_backups(directory, stop, checked):
    """Until stop is set: every backup that appears under a final name is checked whole."""
    while not stop.is_set():
        for name in backups(directory):
            if name not in checked and check_whole(os.path.join(directory, name)):
                checked.add(name)
        await asyncio.sleep(0.05)


async def play_on(white, black, gid, moves, acked, pause=0.02):
    """Plays moves; each acknowledged one goes into acked as (game, ply, san, time)."""
    for i, mv in enumerate(moves):
        mover = white if i % 2 == 0 else black
        r = await mover.move(gid, mv)
        acked.append((gid, r["ply"], r["san"], time.time()))
        await asyncio.sleep(pause)


def game_record(srv, gid):
    """The game as the server has it (in memory, or stored); None when it has none."""
    status, _, body = srv.http("/api/games/%s" % gid)
    assert status in (200, 404), (gid, status, body)
    if status == 404:
        return None
    g = json.loads(body)
    return g.get("game", g)


def check_restored(srv, games, acked, before, resigned):
    """Every move acknowledged before `before` is in the restored games, and nothing else is."""
    counted = 0
    for gid, played in games.items():
        g = game_record(srv, gid)
        wanted = [a for a in acked if a[0] == gid and a[3] < before]
        counted += len(wanted)
        if g is None:  # the backup is older than the game's first move
            assert not wanted, (gid, wanted)
            continue
        assert g["san"] == played[:len(g["san"])], (gid, g["san"], played)
        assert len(g["san"]) >= len(wanted), (gid, len(g["san"]), len(wanted))
        for _, ply, san, _ in wanted:
            assert g["san"][ply - 1] == san, (gid, ply, san, g["san"])
        if gid in resigned and resigned[gid] < before:
            assert g["status"] == "ended" and g["result"] == "1-0", g
    return counted


async def test_backups_while_playing_then_restore(data):
    bdir = os.path.join(data.path, "backups")
    srv = data.start("--backup-dir", bdir, "--backup-interval", "1", "--backup-keep", "3")
    players = [await srv.player("Player%d" % i) for i in range(6)]
    pairs = [(players[0], players[1]), (players[2], players[3]), (players[4], players[5])]
    gids = [await start_game(w, b, {"minutes": 10, "increment": 0}) for w, b in pairs]
    lengths = [40, 120, 150]
    games = {gid: [] for gid in gids}
    acked, checked, resigned = [], set(), {}
    stop = asyncio.Event()
    watcher = asyncio.ensure_future(watch_backups(bdir, stop, checked))
    first_ack = time.time()

    async def one(i):
        w, b = pairs[i]
        await play_on(w, b, gids[i], LONG_GAME[:lengths[i]], acked, pause=0.03)
        if i == 0:  # the shortest ends: its moves go to the archive
            await b.ok({"type": "resign", "game": gids[i]})
            resigned[gids[i]] = time.time()

    await asyncio.gather(*(one(i) for i in range(3)))
    last_ack = time.time()
    for gid, length in zip(gids, lengths):
        games[gid] = [a[2] for a in acked if a[0] == gid]
        assert len(games[gid]) == length
    m = metrics(srv)
    written = m["chess_backup_successes_total"]
    newest_at = m["chess_backup_last_success_timestamp_seconds"]
    assert written >= 3, m
    assert m["chess_backup_failures_total"] == 0, m
    assert m["chess_backup_duration_seconds_count"] == written, m
    assert any(abs(backup_time(n) - newest_at) < 0.0005 for n in backups(bdir)), (
        newest_at, backups(bdir))
    stop.set()
    await watcher
    await srv.close_clients()
    assert srv.stop() == 0
    names = backups(bdir)
    assert len(names) == 3, names  # --backup-keep
    assert sorted(os.listdir(bdir)) == names, os.listdir(bdir)  # no partial file left
    assert checked, "no backup seen under its final name while playing"
    log = srv.read_log()
    taken = [backup_time(n) for n in re.findall(r"backup \S*/(chess-\S+\.db) written", log)]
    assert any(first_ack < t < last_ack for t in taken), (first_ack, last_ack, taken)

    # The newest backup and the oldest kept, each into a data directory of its own.
    tokens = {gid: (w.token, b.token) for gid, (w, b) in zip(gids, pairs)}
    for which, name in (("newest", names[-1]), ("oldest", names[0])):
        target = os.path.join(data.path, "restored-" + which)
        status, out = restore(data, os.path.join(bdir, name), target)
        assert status == 0 and "restored" in out, (status, out)
        srv2 = data.start("--data-dir", target)
        before = backup_time(name)
        counted = check_restored(srv2, games, acked, before, resigned)
        if which == "newest":
            assert counted >= 20, (counted, name, first_ack, last_ack)
            # The archive: the resigned game as PGN.
            status, _, pgn = srv2.http("/api/games/%s.pgn" % gids[0])
            assert status == 200 and b'[Result "1-0"]' in pgn, pgn[:300]
            # Players come back with their tokens and play on in the longest game.
            gid = gids[2]
            w = await srv2.player(token=tokens[gid][0])
            b = await srv2.player(token=tokens[gid][1])
            [live] = [g for g in w.welcome["games"] if g["id"] == gid]
            assert live["san"] == games[gid][:len(live["san"])]
            nxt = LONG_GAME[len(live["san"])]
            mover = w if len(live["san"]) % 2 == 0 else b
            r = await mover.move(gid, nxt)
            assert r["ply"] == len(live["san"]) + 1
        await srv2.close_clients()
        assert srv2.stop() == 0


async def test_failed_backup_is_counted(data):
    bdir = os.path.join(data.path, "backups")
    srv = data.start("--backup-dir", bdir, "--backup-interval", "1", "--backup-keep", "2")
    await wait_for(lambda: metric(srv, "chess_backup_successes_total") >= 1, 10, "a backup")
    # The directory turns into a file: backups fail, the server goes on.
    shutil.rmtree(bdir)
    with open(bdir, "w") as f:
        f.write("not a directory")
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    acked = []
    await play_on(a, b, gid, LONG_GAME[:4], acked)
    await wait_for(lambda: metric(srv, "chess_backup_failures_total") >= 1, 10, "a failure")
    await play_on(a, b, gid, LONG_GAME[4:8], acked)
    assert len(acked) == 8
    assert re.search(r"ERROR store: backup \S+ failed", srv.read_log())
    # Back again: the next one is written.
    done = metric(srv, "chess_backup_successes_total")
    os.remove(bdir)
    os.mkdir(bdir)
    await wait_for(lambda: metric(srv, "chess_backup_successes_total") > done, 10, "a backup")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_bad_backup_flags(data):
    plain = os.path.join(data.path, "plain")
    with open(plain, "w") as f:
        f.write("x")
    for args, said in [(["--backup-dir", plain], "not a directory"),
                       (["--backup-dir", os.path.join(plain, "sub")], "cannot be created"),
                       (["--backup-interval", "0"], "backup-interval"),
                       (["--backup-interval", "6x"], "backup-interval"),
                       (["--backup-interval", "32d"], "backup-interval"),
                       (["--backup-interval", "h"], "backup-interval"),
                       (["--backup-keep", "0"], "backup-keep"),
                       (["--restore"], "needs a value")]:
        status, out = data.run_binary(*args)
        assert status == 2 and said in out, (args, status, out)
    # The environment, too.
    env = dict(os.environ, CHESS_BACKUP_DIR=plain)
    p = subprocess.run([data.binary, "--data-dir", data.path], env=env, timeout=20,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 2 and b"backup-dir" in p.stdout, p.stdout
    # Durations as --help shows them.
    for given, shown in [("90", "90s"), ("15m", "15m"), ("6h", "6h"), ("1d", "1d"),
                         ("7200", "2h")]:
        out = subprocess.run([data.binary, "--backup-interval", given, "--help"],
                             stdout=subprocess.PIPE, timeout=20).stdout.decode()
        assert re.search(r"--backup-interval .*\(%s\)" % shown, out), (given, out)


async def test_restore_refusals(data):
    bdir = os.path.join(data.path, "backups")
    live = os.path.join(data.path, "live")
    srv = data.start("--data-dir", live, "--backup-dir", bdir, "--backup-interval", "1")
    await wait_for(lambda: metric(srv, "chess_backup_successes_total") >= 1, 10, "a backup")
    backup = os.path.join(bdir, backups(bdir)[0])
    target = os.path.join(data.path, "target")

    def nothing_installed():
        return not [n for n in os.listdir(target) if n != "chess.db.lock"]

    # Into the directory of a running server: in use.
    status, out = restore(data, backup, live)
    assert status == 4 and "in use" in out, (status, out)
    await srv.close_clients()
    assert srv.stop() == 0
    # Over its database: never.
    with open(os.path.join(live, "chess.db"), "rb") as f:
        before = hashlib.sha256(f.read()).hexdigest()
    status, out = restore(data, backup, live)
    assert status == 9 and "exists" in out, (status, out)
    with open(os.path.join(live, "chess.db"), "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == before
    # No such file.
    status, out = restore(data, os.path.join(bdir, "nothing.db"), target)
    assert status == 10 and "cannot read" in out, (status, out)
    # A damaged file: cut in half, or not a database at all.
    half = os.path.join(data.path, "half.db")
    with open(backup, "rb") as f, open(half, "wb") as g:
        content = f.read()
        g.write(content[:len(content) // 2])
    junk = os.path.join(data.path, "junk.db")
    with open(junk, "wb") as f:
        f.write(b"not a database at all " * 500)
    for bad in (half, junk):
        status, out = restore(data, bad, target)
        assert status == 5, (bad, status, out)
        assert nothing_installed(), os.listdir(target)
    # A newer schema than this server knows.
    newer = os.path.join(data.path, "newer.db")
    shutil.copy(backup, newer)
    con = sqlite3.connect(newer)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    con.execute("PRAGMA user_version = %d" % (version + 1))
    con.commit()
    con.close()
    status, out = restore(data, newer, target)
    assert status == 6 and "schema version %d" % (version + 1) in out, (status, out)
    assert nothing_installed()
    # A data directory that cannot be one.
    status, out = restore(data, backup, os.path.join(data.path, "half.db"))
    assert status == 3, (status, out)
    # And then the good one.
    status, out = restore(data, backup, target)
    assert status == 0 and "schema version %d" % version in out, (status, out)
    srv2 = data.start("--data-dir", target)
    assert srv2.health()[0] == 200
    assert srv2.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
