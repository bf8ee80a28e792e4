"""
The lobby: the seek list pushed live, seeks leaving with their owner after the grace period,
challenges by link, the live-games list, and the refusal of computer games (not available yet).
"""
from harness import *

SERVER_ARGS = ["--seek-grace-seconds", "1"]


async def test_seek_list_is_live(srv):
    watcher = await srv.player("Watcher")
    a = await srv.player("Ann")
    listed = await watcher.ok({"type": "lobby_subscribe"})
    assert listed["seeks"] == []
    s1 = (await a.ok({"type": "seek_create", "time": "unlimited", "color": "black"}))["seek"]
    s2 = (await a.ok({"type": "seek_create", "time": {"minutes": 10, "increment": 5}}))["seek"]
    assert s1["color"] == "black" and s1["time"] == "unlimited" and s2["color"] == "random"
    assert (await watcher.recv_type("seek_added"))["seek"]["id"] == s1["id"]
    assert (await watcher.recv_type("seek_added"))["seek"]["id"] == s2["id"]
    listed = await watcher.ok({"type": "lobby_subscribe"})
    assert [s["id"] for s in listed["seeks"]] == [s1["id"], s2["id"]]
    removed = await a.ok({"type": "seek_cancel", "seek": s1["id"]})
    assert removed["type"] == "seek_removed" and removed["seek"] == s1["id"]
    await watcher.recv_type("seek_removed", seek=s1["id"])
    await watcher.ok({"type": "lobby_unsubscribe"})
    await a.ok({"type": "seek_cancel", "seek": s2["id"]})
    await watcher.expect_none("seek_removed")


async def test_seek_leaves_with_its_owner(srv):
    watcher = await srv.player("Watcher")
    await watcher.ok({"type": "lobby_subscribe"})
    a = await srv.player("Ann")
    seek = (await a.ok({"type": "seek_create", "time": "unlimited"}))["seek"]
    await watcher.recv_type("seek_added")
    # Back within the grace period: the seek stays.
    token = a.token
    await a.close()
    again = await srv.player(token=token)
    await watcher.expect_none("seek_removed", wait=1.5)
    await again.close()
    removed = await watcher.recv_type("seek_removed", timeout=4)
    assert removed["seek"] == seek["id"]


async def test_challenge_by_link(srv):
    a, friend = await srv.player("Ann"), await srv.player("Friend")
    created = await a.ok({"type": "challenge_create", "time": {"minutes": 1, "increment": 1},
                          "color": "black"})
    ch = created["challenge"]
    assert ch["url"] == "/challenge/" + ch["id"] and len(ch["id"]) == 12
    # Not listed in the lobby.
    listed = await friend.ok({"type": "lobby_subscribe"})
    assert listed["seeks"] == []
    shown = await friend.ok({"type": "challenge_get", "challenge": ch["id"]})
    assert shown["challenge"]["player"]["name"] == "Ann" and shown["challenge"]["color"] == "black"
    started = await friend.ok({"type": "challenge_accept", "challenge": ch["id"]})
    assert started["game"]["white"]["name"] == "Friend" and started["game"]["black"]["name"] == "Ann"
    await a.recv_type("game_started")
    await a.recv_type("challenge_removed", challenge=ch["id"])
    late = await srv.player("Late")
    await late.error({"type": "challenge_accept", "challenge": ch["id"]}, "CHALLENGE_NOT_FOUND")


async def test_live_games_list(srv):
    players = [await srv.player("P%d" % i) for i in range(6)]
    ids = []
    for i in range(3):
        ids.append(await start_game(players[2 * i], players[2 * i + 1]))
    tv = await srv.player("Tv")
    live = await tv.ok({"type": "live_games"})
    assert [g["id"] for g in live["games"]] == ids[::-1]  # newest first
    one = await tv.ok({"type": "live_games", "limit": 1})
    assert len(one["games"]) == 1
    g = live["games"][0]
    assert {"white", "black", "time", "ply", "fen", "turn", "clock"} <= set(g)
    await players[0].ok({"type": "resign", "game": ids[0]})
    live = await tv.ok({"type": "live_games"})
    assert ids[0] not in [g["id"] for g in live["games"]]


@server_args("--engine-workers", "0")
async def test_computer_games_refused_clearly(srv):
    """With the engine turned off, computer games are refused, not faked."""
    a = await srv.player("Ann")
    r = await a.error({"type": "computer_play", "level": 8, "color": "white",
                       "time": {"minutes": 5, "increment": 0}}, "COMPUTER_UNAVAILABLE")
    assert "computer" in r["message"]


if __name__ == "__main__":
    run_tests(globals())
