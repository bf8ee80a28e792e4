"""
The UCI bridge (bots/uci_bridge.py) with Debian's Stockfish, as a real process over real
WebSocket: complete games against the server's computer and against the random bot (two at
once), its challenge policy, and a dropped connection in the middle of a game, after which it
reconnects and finishes the game. Stockfish searches to a small depth so the games take seconds.
Skipped (exit 77) when /usr/games/stockfish is missing: `scripts/setup.sh test` installs it.
"""
import json
import sys
import time

from harness import *

STOCKFISH = "/usr/games/stockfish"
ENGINE = ["--engine", STOCKFISH, "--uci-option", "Threads=1", "--uci-option", "Hash=16"]
# A fast, still strong engine: a few milliseconds per move.
ENGINE_ARGS = ENGINE + ["--depth", "6"]
PLAYED_OUT = {"checkmate", "stalemate", "threefold_repetition", "fivefold_repetition",
              "fifty_moves", "seventy_five_moves", "insufficient_material"}


async def stored_games(client, player_id):
    r = await client.ok({"type": "games_list", "player": player_id, "limit": 10})
    return r["games"]


def assert_played_out(game, bot_id):
    """Ended by the rules of chess (not aborted, abandoned or lost on time by the bot)."""
    assert game["status"] == "ended", game
    assert game["reason"] in PLAYED_OUT, game


async def test_bridge_plays_the_computer(srv):
    owner, token, bot_id = await bot_account(srv, "Owner", "FishBot")
    bridge = BotProcess(srv, "uci_bridge.py", ["--token", token, "--play-computer", "1",
                                               "--games", "1", "--time", "2+1"] + ENGINE_ARGS)
    rc = await bridge.wait(90)
    out = bridge.output()
    assert rc == 0, out[-3000:]
    assert "against the computer at level 1" in out and "1 game(s) played: done" in out, out
    games = await stored_games(owner, bot_id)
    assert len(games) == 1, games
    g = games[0]
    assert_played_out(g, bot_id)
    assert g["result"] != "*" and not g["rated"], g
    bot_color = "white" if g["white"]["id"] == bot_id else "black"
    assert g[bot_color]["name"] == "FishBot"
    # The PGN titles the bot as lichess does.
    status, _, pgn = srv.http("/api/games/%s.pgn" % g["id"])
    assert status == 200
    title = '[%sTitle "BOT"]' % bot_color.capitalize()
    assert title in pgn.decode(), pgn


async def test_bridge_plays_a_daily_game(srv):
    owner, token, bot_id = await bot_account(srv, "Owner", "FishBot")
    bridge = BotProcess(srv, "uci_bridge.py", ["--token", token, "--allow-daily", "--movetime",
                                               "200"] + ENGINE)
    await wait_online(owner, bot_id)
    await owner.ok({"type": "challenge_create", "player": bot_id, "time": {"days": 2},
                    "color": "white"})
    started = await owner.recv_type("game_started", timeout=10)
    gid = started["game"]["id"]
    assert started["game"]["time"] == {"days": 2}, started
    t0 = time.time()
    await owner.move(gid, "e4")
    reply = await owner.recv_type("move", game=gid, ply=2, timeout=20)
    assert time.time() - t0 < 15, "the engine was given days"
    assert "go movetime 200" in bridge.output(), bridge.output()[-3000:]
    await owner.ok({"type": "resign", "game": gid})
    assert reply["clock"]["deadline"] > 0, reply
    await bridge.close()


async def test_bridge_plays_the_random_bot_two_games_at_once(srv):
    owner, fish_token, fish_id = await bot_account(srv, "Owner", "FishBot")
    await owner.ok({"type": "bot_create", "username": "RandBot"})
    rand_token = (await owner.ok({"type": "bot_token_create", "username": "RandBot"}))["token"]
    # 30 ms a move, so that the two games certainly overlap.
    bridge = BotProcess(srv, "uci_bridge.py", ["--token", fish_token, "--games", "2",
                                               "--max-games", "2"] + ENGINE + ["--movetime", "30"])
    await wait_online(owner, fish_id)
    rand = BotProcess(srv, "random_bot.py", ["--token", rand_token, "--challenge", fish_id,
                                             "--count", "2", "--games", "2", "--time", "2+0"])
    assert await rand.wait(90) == 0, rand.output()[-3000:]
    assert await bridge.wait(30) == 0, bridge.output()[-3000:]
    games = await stored_games(owner, fish_id)
    assert len(games) == 2, games
    for g in games:
        assert_played_out(g, fish_id)
        # Bot against bot: both marked; rated, since both are accounts and both are bots.
        assert g["rated"], g
    # Both were in progress at once.
    first, second = sorted(games, key=lambda g: g["created_at"])
    assert second["created_at"] < first["ended_at"], games
    out = bridge.output()
    assert out.count("accepted") >= 2, out


async def test_bridge_challenge_policy(srv):
    owner, token, bot_id = await bot_account(srv, "Owner", "FishBot")
    # The policy from a config file; flags add to it.
    config = os.path.join(srv.tmp, "bridge.json")
    with open(config, "w") as f:
        json.dump({"engine": STOCKFISH, "uci_option": ["Threads=1", "Hash=16"], "depth": 6,
                   "max_games": 1, "allow": ["Owner"], "min_initial": 60, "rated": False}, f)
    bridge = BotProcess(srv, "uci_bridge.py", ["--config", config, "--token", token,
                                               "--games", "1"])
    await wait_online(owner, bot_id)

    async def challenge(client, time_control, expect_reason=None, rated=None):
        msg = {"type": "challenge_create", "player": bot_id, "time": time_control}
        if rated is not None:
            msg["rated"] = rated
        cid = (await client.ok(msg))["challenge"]["id"]
        if expect_reason:
            gone = await client.recv_type("challenge_removed", challenge=cid, timeout=10)
            assert gone["reason"] == "declined", gone
            assert gone["decline_reason"] == expect_reason, gone
        return cid

    stranger = await srv.player("Stranger")
    await challenge(stranger, {"minutes": 5, "increment": 0}, "generic")       # not allowed
    await challenge(owner, {"minutes": 0.5, "increment": 0}, "time_control")   # too fast
    await challenge(owner, "unlimited", "time_control")                        # no clock
    await challenge(owner, {"days": 3}, "time_control")                        # daily
    await challenge(owner, {"minutes": 1, "increment": 0}, rated=False)        # accepted
    started = await owner.recv_type("game_started", timeout=10)
    gid = started["game"]["id"]
    assert started["game"]["black" if started["game"]["white"]["id"] == owner.player["id"]
                            else "white"].get("bot") is True
    await challenge(owner, {"minutes": 1, "increment": 0}, "too_many_games")   # one at a time
    await owner.ok({"type": "resign", "game": gid})
    assert await bridge.wait(20) == 0, bridge.output()[-3000:]
    out = bridge.output()
    assert "declined: time_control" in out and "declined: too_many_games" in out, out


class Proxy:
    """A TCP relay between the bridge and the server, whose connections the test can cut."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.port = free_port()
        self.writers = []
        self.server = None

    async def start(self):
        self.server = await asyncio.start_server(self.relay, "127.0.0.1", self.port)

    async def relay(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]

        async def pipe(src, dst):
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    def cut(self):
        """Drops every relayed connection at once, as a network failure would (no close frame)."""
        for w in self.writers:
            w.transport.abort()
        self.writers = []

    def close(self):
        self.cut()
        self.server.close()


async def test_bridge_reconnects_and_finishes_its_game(srv):
    owner, fish_token, fish_id = await bot_account(srv, "Owner", "FishBot")
    await owner.ok({"type": "bot_create", "username": "RandBot"})
    rand_token = (await owner.ok({"type": "bot_token_create", "username": "RandBot"}))["token"]
    proxy = Proxy(srv.port)
    await proxy.start()
    try:
        # 100 ms a move: the game is still on when the connection is cut.
        bridge = BotProcess(srv, "uci_bridge.py", ["--token", fish_token, "--games", "1"] +
                            ENGINE + ["--movetime", "100"], url="ws://127.0.0.1:%d/ws" % proxy.port)
        await wait_online(owner, fish_id)
        rand = BotProcess(srv, "random_bot.py", ["--token", rand_token, "--challenge", fish_id,
                                                 "--games", "1", "--time", "3+0"])
        game = None
        while game is None:
            r = await owner.ok({"type": "live_games"})
            game = next((g for g in r["games"] if fish_id in (g["white"]["id"], g["black"]["id"])),
                        None)
            await asyncio.sleep(0.05)
        gid = game["id"]
        fish_color = "white" if game["white"]["id"] == fish_id else "black"
        await owner.ok({"type": "watch", "game": gid})
        await owner.recv(lambda m: m.get("type") == "move" and m["ply"] >= 4, 20, "ply 4")
        proxy.cut()  # the bridge's connection drops mid-game
        away = await owner.recv_type("presence", game=gid, connected=False, timeout=10)
        assert away["color"] == fish_color
        back = await owner.recv_type("presence", game=gid, connected=True, timeout=15)
        assert back["color"] == fish_color
        end = await owner.recv_type("game_end", game=gid, timeout=60)
        assert end["reason"] in PLAYED_OUT, end
        assert await bridge.wait(20) == 0, bridge.output()[-3000:]
        assert await rand.wait(20) == 0, rand.output()[-3000:]
    finally:
        proxy.close()
    out = bridge.output()
    assert "connection lost" in out and out.count("connected to") == 2, out
    # It moved in this game after coming back.
    after = out[out.index("connection lost"):]
    assert "game=%s ply=" % gid in after, out


if __name__ == "__main__":
    if not os.access(STOCKFISH, os.X_OK):
        print("SKIP: %s is missing (install it with: sudo bash scripts/setup.sh test)" % STOCKFISH)
        sys.exit(77)
    run_tests(globals())
