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


async def raw_websocket(srv):
    """A WebSocket opened by hand, which answers nothing: (reader, writer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
    writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 b"Sec-WebSocket-Version: 13\r\n\r\n")
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


@server_args("--ping-seconds", "1", "--idle-timeout-seconds", "3")
async def test_keepalive_pings_quiet_clients_and_drops_silent_ones(srv):
    # A client that answers pings (the websockets library does) stays past the idle timeout.
    alive = await srv.player("Ann")
    reader, writer = await raw_websocket(srv)
    start = time.time()
    # The silent client is pinged (opcode 9) after about a second of quiet...
    first = await asyncio.wait_for(reader.readexactly(2), 4)
    assert first[0] & 0x0F == 0x9, first
    pinged_after = time.time() - start
    assert 0.9 <= pinged_after <= 2.5, pinged_after
    # ...and, never answering, is dropped after the idle timeout (EOF, no more frames needed).
    await reader.readexactly(first[1] & 0x7F)
    rest = await asyncio.wait_for(reader.read(), 6)
    dropped_after = time.time() - start
    assert 2.9 <= dropped_after <= 5.5, dropped_after
    assert rest == b"" or rest[0] & 0x0F in (0x9, 0x8), rest
    writer.close()
    await alive.ok({"type": "ping"})
    assert metric(srv, "chess_connections_closed_idle_total") == 1


if __name__ == "__main__":
    run_tests(globals())
