"""
Reconnecting mid-game with the token: the full state comes back in the welcome, the opponent
sees "disconnected" and "reconnected", play goes on; after the documented time away the
opponent may claim the win or a draw.
"""
from harness import *

SERVER_ARGS = ["--abandon-seconds", "1"]


async def test_reconnect_mid_game(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b, {"minutes": 5, "increment": 2})
    await play(gid, a, b, ["e4", "c5", "Nf3"])
    token = b.token
    await b.close()
    away = await a.recv_type("presence")
    assert away["color"] == "black" and away["connected"] is False and away["claim_after_ms"] == 1000
    b2 = await srv.connect()
    welcome = await b2.hello(token=token)
    assert welcome["player"] == b.player
    [game] = welcome["games"]
    assert game["id"] == gid and game["san"] == ["e4", "c5", "Nf3"] and game["turn"] == "black"
    assert game["black"]["connected"] is True and game["status"] == "playing"
    back = await a.recv_type("presence", connected=True)
    assert back["color"] == "black"
    await b2.move(gid, "d6")
    ev = await a.recv_type("move", ply=4)
    assert ev["san"] == "d6"


async def test_two_connections_one_player(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    tab = await srv.player(token=a.token)  # a second browser tab
    await b.ok({"type": "draw_offer", "game": gid})
    await tab.recv_type("offer", kind="draw")
    await a.recv_type("offer", kind="draw")
    await a.close()  # one tab closing is not leaving
    await b.expect_none("presence")
    await tab.move(gid, "e4")


async def claim_after_leaving(srv, leaver, result):
    """One player leaves after 1. d4 d5; the other claims once the time away has passed."""
    players = {"white": await srv.player("Ann"), "black": await srv.player("Ben")}
    gid = await start_game(players["white"], players["black"])
    await play(gid, players["white"], players["black"], ["d4", "d5"])
    stayer = players["black" if leaver == "white" else "white"]
    await players[leaver].close()
    away = await stayer.recv_type("presence", connected=False)
    assert away["color"] == leaver
    await asyncio.sleep(1.1)
    end = await stayer.ok({"type": "abandon_claim", "game": gid, "result": result})
    assert end["type"] == "game_end" and end["reason"] == "abandoned"
    return end


async def test_abandoned_game_claimed_as_win(srv):
    end = await claim_after_leaving(srv, "white", "win")
    assert end["result"] == "0-1" and end["winner"] == "black"


async def test_abandoned_game_claimed_as_draw(srv):
    end = await claim_after_leaving(srv, "black", "draw")
    assert end["result"] == "1/2-1/2"


def metric(srv, name):
    status, _, body = srv.http("/metrics")
    assert status == 200
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError("no metric " + name)


@server_args("--guest-purge-seconds", "1")
async def test_guest_forgotten_then_back_from_the_database(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    players = metric(srv, "chess_players")
    token, player = a.token, a.player
    await a.close()
    # Away for the purge time with nothing in memory: forgotten (b, still here, is kept).
    deadline = time.time() + 5
    while metric(srv, "chess_guests_forgotten_total") < 1 and time.time() < deadline:
        await asyncio.sleep(0.1)
    assert metric(srv, "chess_guests_forgotten_total") == 1
    assert metric(srv, "chess_players") == players - 1
    # Its token still works: the identity comes back from the database.
    again = await srv.player(token=token)
    assert again.player == player
    assert metric(srv, "chess_players") == players
    await b.ok({"type": "ping"})


if __name__ == "__main__":
    run_tests(globals())
