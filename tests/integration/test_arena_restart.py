"""
An arena tournament across restarts (docs/tournaments.md, "Persistence and restarts"): 12
accounts play a 1-minute arena at 1+0; the server is stopped mid-tournament, once with SIGTERM
and once with SIGKILL, and started again on the same store. Each time the arena comes back with
the same standings (recomputed from the archive's games in the order they ended), its games in
progress are restored and played on by their players, who reconnect with their tokens; at the
end the final standings are what the archive gives when scored independently.
"""
import asyncio
import signal

from arena_harness import (BULLET, account, archive_rows, arena_players, bots_back, compare,
                           joined, recompute, stop_all, watch_until)
from persist_harness import run_data_dir_tests

MINUTES = 1
PLAYERS = 12
KEYS = ("score", "games", "wins", "draws", "losses", "sheet", "performance")


def places(standings):
    return [(s["player"]["id"], {k: s[k] for k in KEYS}) for s in standings]


async def test_restarts_keep_the_standings(data):
    srv = data.start()
    creator = await account(srv, "director")
    aid = (await creator.ok({"type": "arena_create", "name": "Restart Arena", "time": BULLET,
                             "minutes": MINUTES, "starts_in": 2}))["arena"]["id"]
    tokens = await joined(srv, aid, PLAYERS)
    bots = await bots_back(srv, tokens, 0)
    for round_, sig in enumerate((signal.SIGTERM, signal.SIGKILL)):
        await asyncio.sleep(15)
        await stop_all(bots)
        await asyncio.sleep(0.5)  # the last moves sent are answered
        watcher = await srv.player("Watcher")
        before = (await watcher.ok({"type": "arena_watch", "arena": aid}))["arena"]
        assert before["status"] == "started" and before["players"] == PLAYERS, before
        before_live = data.query(
            "SELECT id FROM games WHERE arena_id = ? AND status = 'live' ORDER BY id", (aid,))
        await srv.close_clients()
        if sig == signal.SIGTERM:
            assert srv.stop(sig) == 0
        else:
            srv.proc.kill()
            srv.proc.wait()
        srv = data.start()
        watcher = await srv.player("Watcher")
        after = (await watcher.ok({"type": "arena_watch", "arena": aid}))["arena"]
        assert after["status"] == "started" and after["players"] == PLAYERS, after
        assert places(after["standings"]) == places(before["standings"]), \
            "%s: standings changed across the restart" % sig.name
        # The same standings as the archive gives.
        rows = archive_rows(data, aid)
        compare(recompute(rows, arena_players(data, aid)), after["standings"])
        # A game from before the restart, read from the archive: its arena, and the PGN's Event.
        record = (await watcher.ok({"type": "game_record", "game": rows[0][0]}))["game"]
        assert record["arena"] == {"id": aid, "name": "Restart Arena"}, record
        status, _, body = srv.http("/game/export/%s" % rows[0][0])
        assert status == 200 and b'[Event "Restart Arena"]' in body, body[:300]
        live = data.query(
            "SELECT id FROM games WHERE arena_id = ? AND status = 'live' ORDER BY id", (aid,))
        assert live == before_live, (live, before_live)
        playing = sorted(s["player"]["id"] for s in after["standings"] if s.get("playing"))
        assert len(playing) == 2 * len(live), (playing, live)
        print("%s: %d games ended and %d in progress kept" % (
            sig.name, sum(s["games"] for s in after["standings"]) // 2, len(live)))
        bots = await bots_back(srv, tokens, 100 * (round_ + 1))
    final = await watch_until(watcher, aid, "finished", MINUTES * 60 + 90)
    await stop_all(bots)
    rows = archive_rows(data, aid)
    compare(recompute(rows, arena_players(data, aid)), final["standings"])
    assert not data.query("SELECT id FROM games WHERE arena_id = ? AND status = 'live'", (aid,))
    print("%d games in all; the winner has %d points" % (len(rows),
                                                        final["standings"][0]["score"]))
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals(), timeout=MINUTES * 60 + 240)
