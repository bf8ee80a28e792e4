"""
An arena's node dies mid-tournament (docs/tournaments.md, "Several nodes"; docs/scaling.md,
"When a node dies"): two nodes adopting each other's games; a 1-minute arena at 1+0 created on
node a, six accounts connected to node a join it and play with random legal moves (half their
games berserk); node a's schedule has made an hourly arena too. Node a is killed (SIGKILL) with
arena games in progress:

- node b takes the arena over with the games (its own older arena stays as it is): it holds it
  (arena_watch there) with the same standings as the archive's ended games give, its adopted
  games in progress count as playing and carry their arena and their sides' berserk;
- the players reconnect to node b with their tokens, finish the adopted games there (scored)
  and are paired again on node b;
- node a started again (same id) does not load the arena (it is not its node's any more), nor
  does its --arena-schedule create again the scheduled arena that node b took over;
- at the end, the standings node b announces are what the archive's games give when scored
  independently, and the arena is node b's, finished.

Runs on the shared SQLite file and (server_integration_arena_takeover_pg) on PostgreSQL.
"""
import asyncio
import re
import signal
import time

from arena_harness import (BULLET, account, archive_rows, arena_players, bots_back, compare,
                           joined, recompute, stop_all, watch_until)
from cluster_harness import run_site_tests

PLAYERS = 6
KEYS = ("score", "games", "wins", "draws", "losses", "sheet", "performance")


def live_games(site, aid):
    """The arena's games in progress: [(id, berserk white, berserk black)]."""
    return site.query("SELECT id, berserk_white, berserk_black FROM games WHERE arena_id = ? "
                      "AND status = 'live' ORDER BY id", (aid,))


async def bots_on(node, tokens, seed):
    return await bots_back(node, tokens, seed, berserk_share=0.5, resign_share=0.05)


async def watch_when_adopted(watcher, aid, deadline_s=20):
    """The arena's state on the watcher's node once that node holds it (until it adopted it,
    the watch goes to the dead node: OWNER_UNREACHABLE). Returns (the state, the seconds it
    took)."""
    began = time.time()
    while time.time() - began < deadline_s:
        reply = await watcher.request({"type": "arena_watch", "arena": aid})
        if reply.get("type") != "error":
            return reply["arena"], time.time() - began
        assert reply.get("code") == "OWNER_UNREACHABLE", reply
        await asyncio.sleep(0.2)
    raise AssertionError("the arena was not adopted within %d s" % deadline_s)


async def test_arena_moves_with_its_games(site):
    # Node a also has a schedule: an hourly arena half an hour from now, created at once.
    schedule = "hourly@%d:1+0:30" % ((time.gmtime().tm_min + 30) % 60)
    a = site.node("a", "--adopt-games", "1", "--arena-schedule", schedule)
    b = site.node("b", "--adopt-games", "1")
    await site.wait_joined(2)
    # Node b holds an arena of its own, older: the adoption skips it (it is in b's world).
    own = (await (await account(b, "owner")).ok(
        {"type": "arena_create", "name": "Node B Arena", "time": BULLET, "minutes": 30,
         "starts_in": 3600}))["arena"]["id"]
    creator = await account(a, "director")
    aid = (await creator.ok({"type": "arena_create", "name": "Takeover Arena", "time": BULLET,
                             "minutes": 1, "starts_in": 3}))["arena"]["id"]
    tokens = await joined(a, aid, PLAYERS)
    bots = await bots_on(a, tokens, 0)
    # Played on node a until some games ended there and some are in progress.
    deadline = time.time() + 30
    while True:
        ended = site.query("SELECT count(*) FROM games WHERE arena_id = ? AND status = 'ended'",
                           (aid,))[0][0]
        if ended >= 6 and len(live_games(site, aid)) >= 2:
            break
        assert time.time() < deadline, "no arena games on node a: %s" % a.read_log()[-3000:]
        await asyncio.sleep(0.2)
    await stop_all(bots)
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait(10)
    a.log.close()
    await a.close_clients()
    adopted = live_games(site, aid)  # node a writes nothing more
    assert adopted, "no game in progress when node a died"

    # Node b holds the arena once it adopted node a's games.
    watcher = await b.player("Watcher")
    state, took = await watch_when_adopted(watcher, aid)
    print("node b holds the arena %.1f s after node a's SIGKILL, with %d game(s) in progress"
          % (took, len(adopted)))
    assert state["status"] == "started" and state["players"] == PLAYERS, state
    compare(recompute(archive_rows(site, aid), arena_players(site, aid)), state["standings"])
    playing = [s["player"]["id"] for s in state["standings"] if s.get("playing")]
    assert len(playing) == 2 * len(adopted), (playing, adopted)
    assert site.query("SELECT node, status FROM arenas WHERE id = ?", (aid,)) == [("b", "started")]
    # Node b counts the takeover for the operator.
    status, _, body = b.http("/metrics")
    counted = dict(re.findall(r"^chess_(\w+_total) (\S+)$", body.decode(), re.M))
    assert status == 200 and counted["takeovers_total"] == "1", counted
    assert counted["games_adopted_total"] == str(len(adopted)), (counted, adopted)
    moved = site.query("SELECT COUNT(*) FROM arenas WHERE node = 'b' AND status != 'finished' "
                       "AND id != ?", (own,))[0][0]
    assert counted["arenas_adopted_total"] == str(moved) and moved >= 1, (counted, moved)
    listed = [x["id"] for x in (await watcher.ok({"type": "arena_list"}))["arenas"]]
    assert own in listed and aid in listed, (own, aid, listed)
    assert site.query("SELECT node, status FROM arenas WHERE name = 'Hourly Bullet Arena'") == \
        [("b", "created")]
    # Its adopted games carry their arena and their sides' berserk.
    for gid, berserk_white, berserk_black in adopted:
        game = (await watcher.ok({"type": "watch", "game": gid}))["game"]
        assert game["arena"] == {"id": aid, "name": "Takeover Arena"}, game
        assert game["berserk"] == {"white": bool(berserk_white),
                                   "black": bool(berserk_black)}, (game["berserk"], gid)

    # The players come back through node b: they finish the adopted games and are paired again.
    bots = await bots_on(b, tokens, 100)
    # Node a started again with its id: an empty node, without the arena.
    a.start()
    await site.wait_joined(2, timeout=20)
    restored = re.findall(r"restored (\d+) arena\(s\)", a.read_log())
    assert restored == ["0", "0"], restored
    final = await watch_until(await b.player("Watcher2"), aid, "finished", 120)
    await stop_all(bots)

    rows = archive_rows(site, aid)
    compare(recompute(rows, arena_players(site, aid)), final["standings"])
    ended_ids = {r[0] for r in rows}
    assert all(gid in ended_ids for gid, _, _ in adopted), (adopted, ended_ids)
    assert not live_games(site, aid)
    adopted_ids = {gid for gid, _, _ in adopted}
    paired_on_b = [gid for (gid,) in site.query(
        "SELECT id FROM games WHERE arena_id = ? AND node = 'b'", (aid,)) if gid not in adopted_ids]
    assert paired_on_b, "nobody was paired on node b"
    assert site.query("SELECT node, status FROM arenas WHERE id = ?", (aid,)) == \
        [("b", "finished")]
    # Node a's schedule, started again, did not make its scheduled arena again: node b has it.
    assert site.query("SELECT node FROM arenas WHERE name = 'Hourly Bullet Arena'") == [("b",)]
    print("%d games in all, %d adopted and %d paired on node b; the winner has %d points"
          % (len(rows), len(adopted), len(paired_on_b), final["standings"][0]["score"]))
    await site.close_clients()


if __name__ == "__main__":
    run_site_tests(globals(), timeout=150)
