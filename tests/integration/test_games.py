"""
Games over real WebSocket connections: a full game to checkmate through the lobby, with a
spectator; resignation; draw by agreement and by repetition claim; flag on time; first-move
abort; takeback; abort; rematch.
"""
from harness import *

SERVER_ARGS = []


async def test_lobby_game_to_checkmate_with_spectator(srv):
    alice = await srv.player("Alice")
    bob = await srv.player("Bob")
    watcher = await srv.player("Watcher")
    seeks = await bob.ok({"type": "lobby_subscribe"})
    assert seeks["type"] == "seeks" and seeks["seeks"] == []
    added = await alice.ok({"type": "seek_create", "time": {"minutes": 3, "increment": 2},
                            "color": "white"})
    assert added["type"] == "seek_added"
    seek = added["seek"]
    assert seek["player"]["name"] == "Alice" and seek["time"] == {"minutes": 3, "increment": 2}
    pushed = await bob.recv_type("seek_added")
    assert pushed["seek"]["id"] == seek["id"]
    started = await bob.ok({"type": "seek_accept", "seek": seek["id"]})
    assert started["type"] == "game_started"
    game = started["game"]
    assert game["white"]["name"] == "Alice" and game["black"]["name"] == "Bob"
    assert game["status"] == "playing" and game["clock"] == {"white": 180000, "black": 180000}
    await bob.recv_type("seek_removed", seek=seek["id"])
    await alice.recv_type("game_started")
    gid = game["id"]

    full = await watcher.ok({"type": "watch", "game": gid})
    assert full["type"] == "game" and full["game"]["id"] == gid and full["game"]["ply"] == 0
    live = await watcher.ok({"type": "live_games"})
    assert [g["id"] for g in live["games"]] == [gid]

    moves = ["f3", "e5", "g4", "Qh4#"]
    for i, mv in enumerate(moves):
        mover, other = (alice, bob) if i % 2 == 0 else (bob, alice)
        ev = await mover.move(gid, mv)
        assert ev["type"] == "move" and ev["ply"] == i + 1 and ev["san"] == mv
        assert set(ev["clock"]) == {"white", "black"}
        seen = await other.recv_type("move", ply=i + 1)
        assert seen["uci"] == ev["uci"] and "id" not in seen
        spectated = await watcher.recv_type("move", ply=i + 1)
        assert spectated["fen"] == ev["fen"]
    for c in (alice, bob, watcher):
        end = await c.recv_type("game_end", game=gid)
        assert end["result"] == "0-1" and end["reason"] == "checkmate" and end["winner"] == "black"
    full = await watcher.ok({"type": "watch", "game": gid})
    assert full["game"]["status"] == "ended" and full["game"]["san"] == moves
    # The game stays readable over HTTP after the end.
    status, _, body = srv.http("/api/games/" + gid)
    assert status == 200 and json.loads(body)["reason"] == "checkmate"


async def test_resignation(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5"])
    end = await b.ok({"type": "resign", "game": gid})
    assert end["type"] == "game_end" and end["result"] == "1-0" and end["reason"] == "resignation"
    other = await a.recv_type("game_end")
    assert other["winner"] == "white"


async def test_draw_by_agreement(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["d4", "d5"])
    offer = await a.ok({"type": "draw_offer", "game": gid})
    assert offer["type"] == "offer" and offer["kind"] == "draw" and offer["by"] == "white"
    await b.recv_type("offer", kind="draw")
    declined = await b.ok({"type": "draw_decline", "game": gid})
    assert declined["type"] == "offer_declined" and declined["by"] == "black"
    await a.recv_type("offer_declined")
    await a.ok({"type": "draw_offer", "game": gid})
    end = await b.ok({"type": "draw_accept", "game": gid})
    assert end["type"] == "game_end" and end["result"] == "1/2-1/2" and end["reason"] == "agreement"
    await a.recv_type("game_end")


async def test_draw_by_repetition_claim(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"])
    await b.error({"type": "draw_claim", "game": gid}, "NO_DRAW_TO_CLAIM")
    await b.move(gid, "Ng8")  # the start position for the third time
    end = await a.ok({"type": "draw_claim", "game": gid})
    assert end["reason"] == "threefold_repetition" and end["result"] == "1/2-1/2"


async def test_flag_on_time(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b, {"minutes": 0.25, "increment": 0})
    await play(gid, a, b, ["e4", "e5"])
    # White's 15 seconds run from Black's first move; nobody moves: the server's timer flags.
    end = await b.recv_type("game_end", timeout=20)
    assert end["reason"] == "timeout" and end["result"] == "0-1", end
    assert end["clock"]["white"] == 0
    await a.recv_type("game_end")


@server_args("--first-move-seconds", "1")
async def test_first_move_timeout_aborts(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    end = await a.recv_type("game_end", timeout=4)
    assert end["reason"] == "aborted" and end["result"] == "*"
    await b.recv_type("game_end")


async def test_takeback(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5", "Nf3"])
    proposal = await a.ok({"type": "takeback_propose", "game": gid})
    assert proposal["type"] == "offer" and proposal["kind"] == "takeback"
    await b.recv_type("offer", kind="takeback")
    await b.ok({"type": "takeback_decline", "game": gid})
    await a.recv_type("offer_declined", kind="takeback")
    await a.ok({"type": "takeback_propose", "game": gid})
    tb = await b.ok({"type": "takeback_accept", "game": gid})
    assert tb["type"] == "takeback" and tb["undone"] == 1 and tb["ply"] == 2 and tb["turn"] == "white"
    await a.recv_type("takeback")
    ev = await a.move(gid, "Nc3")  # a different move now
    assert ev["ply"] == 3 and ev["san"] == "Nc3"
    state = await b.ok({"type": "watch", "game": gid})
    assert state["game"]["san"] == ["e4", "e5", "Nc3"]


async def test_abort(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await a.move(gid, "e4")
    end = await b.ok({"type": "abort", "game": gid})
    assert end["reason"] == "aborted" and end["result"] == "*"
    gid2 = await start_game(a, b)
    await play(gid2, a, b, ["e4", "e5"])
    await a.error({"type": "abort", "game": gid2}, "TOO_LATE_TO_ABORT")


async def test_rematch(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "e5"])
    await a.ok({"type": "resign", "game": gid})
    await b.recv_type("game_end")
    offer = await b.ok({"type": "rematch_offer", "game": gid})
    assert offer["kind"] == "rematch" and offer["by"] == "black"
    await a.recv_type("offer", kind="rematch")
    started = await a.ok({"type": "rematch_accept", "game": gid})
    assert started["type"] == "game_started"
    new = started["game"]
    # Colours swap; same time control.
    assert new["white"]["name"] == "Ben" and new["black"]["name"] == "Ann"
    assert new["time"] == {"minutes": 5, "increment": 0}
    await b.recv_type("game_started")
    link = await b.recv_type("rematch")
    assert link["next"] == new["id"]
    await b.move(new["id"], "d4")
    await a.error({"type": "rematch_offer", "game": gid}, "REMATCH_DONE")



@server_args("--max-finished-games", "5")
async def test_ended_games_kept_within_the_limit(srv):
    # Ended games beyond --max-finished-games leave memory at once, even while nothing else
    # comes due (they used to wait for another timer and piled up under load).
    a = await srv.player("Ann")
    b = await srv.player("Ben")
    for _ in range(15):
        gid = await start_game(a, b)
        await a.ok({"type": "abort", "game": gid})
        await b.recv_type("game_end", game=gid)
    async def kept():
        _, _, text = await asyncio.to_thread(srv.http, "/metrics")
        line = [l for l in text.decode().splitlines() if l.startswith('chess_games{state="ended"}')]
        return int(line[0].split()[-1])
    for _ in range(50):
        if await kept() <= 5:
            break
        await asyncio.sleep(0.05)
    assert await kept() <= 5, await kept()

if __name__ == "__main__":
    run_tests(globals())


async def test_spectator_count(srv):
    """The players and spectators learn how many people watch: each person once (two tabs are
    one), the players not counted, announced when it changes, to a page that opens later too."""
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await a.ok({"type": "watch", "game": gid})  # a player's page: not a spectator
    sue = await srv.player("Sue")
    await sue.ok({"type": "watch", "game": gid})
    sue_tab = await srv.player(token=sue.token)
    await sue_tab.ok({"type": "watch", "game": gid})
    tom = await srv.player("Tom")
    await tom.ok({"type": "watch", "game": gid})
    for c in (a, b, sue, tom):
        await c.recv_type("spectators", game=gid, count=2, timeout=5)
    # Ben's page, opened now, hears the count with the game.
    await b.ok({"type": "watch", "game": gid})
    await b.recv_type("spectators", game=gid, count=2)
    # Tom leaves; one of Sue's tabs closes, the other stays.
    await tom.ok({"type": "unwatch", "game": gid})
    await sue_tab.close()
    for c in (a, b, sue):
        await c.recv_type("spectators", game=gid, count=1, timeout=5)
    await sue.close()
    await a.recv_type("spectators", game=gid, count=0, timeout=5)
    await tom.expect_none("spectators", wait=1.5)  # no longer watching
