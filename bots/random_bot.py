#!/usr/bin/python3
"""
A minimal bot for this chess server: it plays random legal moves, and shows the whole bot
protocol (docs/bots.md) in one short program.

It connects to /ws with its bot token in the Authorization header (the server answers with
`welcome`, holding the games it has in progress), then reacts to events:

  challenge_received    accept it (or decline: too many games already)
  game_started, game    a full game state: move if it is our turn
  move, takeback        move if it is our turn (the server sends `legal_moves` when a bot is to move)
  offer                 decline draws and takebacks, accept rematches when --rematch
  chat                  answer "good game" once the game is over
  game_end              count the game; quit after --games games when asked
  error RATE_LIMITED    send the move again a second later

Optionally it starts games itself: --challenge PLAYER_ID (a direct challenge, --count of them),
--seek (a public seek) or --computer LEVEL (the built-in engine).

Run:  CHESS_BOT_TOKEN=... /usr/bin/python3 bots/random_bot.py --url ws://localhost:8080/ws
Needs only Debian's python3-websockets.
"""
import argparse
import asyncio
import json
import os
import random
import sys

try:
    import websockets
except ImportError:
    sys.exit("random_bot: python3-websockets is missing (apt-get install python3-websockets; "
             "run with /usr/bin/python3)")


def parse_time(text):
    """"3+2" -> {"minutes": 3, "increment": 2}; "2d" -> {"days": 2}; "unlimited" stays."""
    if text.endswith("d"):
        return {"days": int(text[:-1])}
    if text == "unlimited":
        return text
    minutes, increment = text.split("+")
    return {"minutes": float(minutes), "increment": int(increment)}


class RandomBot:
    def __init__(self, ws, opts):
        self.ws = ws
        self.opts = opts
        self.me = None          # our player id, from welcome
        self.colors = {}        # game id -> "white" or "black"
        self.finished = 0       # games that ended
        self.next_id = 0
        self.sent_moves = {}    # request id -> move message (to send again when rate limited)

    async def send(self, msg):
        self.next_id += 1
        msg["id"] = self.next_id
        print("->", json.dumps(msg), flush=True)
        await self.ws.send(json.dumps(msg))

    async def play_if_our_turn(self, game_id, turn, ply, legal_moves):
        if self.colors.get(game_id) == turn and legal_moves:
            move = {"type": "move", "game": game_id, "move": random.choice(legal_moves), "ply": ply}
            await self.send(move)
            self.sent_moves[move["id"]] = move

    async def send_again_later(self, move):
        await asyncio.sleep(1)  # slower: the server allows a bot 50 messages a second
        await self.send(move)   # carries its ply: STALE_PLY if the game has moved on
        self.sent_moves[move["id"]] = move

    async def on_game_state(self, game):
        if game["status"] != "playing":
            return
        self.colors[game["id"]] = "white" if game["white"]["id"] == self.me else "black"
        await self.play_if_our_turn(game["id"], game["turn"], game["ply"], game.get("legal_moves"))

    async def start_games(self):
        tc = parse_time(self.opts.time)
        for _ in range(self.opts.count):
            if self.opts.challenge:
                await self.send({"type": "challenge_create", "player": self.opts.challenge,
                                 "time": tc, "color": "random"})
            if self.opts.seek:
                await self.send({"type": "seek_create", "time": tc})
            if self.opts.computer:
                await self.send({"type": "computer_play", "level": self.opts.computer,
                                 "time": tc, "color": "random"})

    async def on_message(self, m):
        kind = m["type"]
        if kind == "welcome":
            self.me = m["player"]["id"]
            for game in m["games"]:                 # games in progress (after a reconnect)
                await self.on_game_state(game)
            await self.start_games()
        elif kind == "challenge_received":
            challenge = m["challenge"]["id"]
            if len(self.colors) >= self.opts.max_games:
                await self.send({"type": "challenge_decline", "challenge": challenge,
                                 "reason": "too_many_games"})
            else:
                await self.send({"type": "challenge_accept", "challenge": challenge})
        elif kind in ("game_started", "game"):
            await self.on_game_state(m["game"])
        elif kind in ("move", "takeback"):
            self.sent_moves.pop(m.get("id"), None)  # our move was played
            await self.play_if_our_turn(m["game"], m["turn"], m["ply"], m.get("legal_moves"))
        elif kind == "offer" and m["game"] in self.colors and m["by"] != self.colors[m["game"]]:
            if m["kind"] == "rematch" and self.opts.rematch:
                await self.send({"type": "rematch_accept", "game": m["game"]})
            elif m["kind"] in ("draw", "takeback"):
                await self.send({"type": m["kind"] + "_decline", "game": m["game"]})
        elif kind == "game_end":
            if self.colors.pop(m["game"], None) is not None:
                self.finished += 1
                await self.send({"type": "chat", "game": m["game"], "text": "good game"})
            if self.opts.games and self.finished >= self.opts.games:
                return False
        elif kind == "error":
            print("server refused:", m.get("code"), m.get("message"), file=sys.stderr, flush=True)
            if m["code"] == "BAD_TOKEN":
                return False
            if m["code"] == "RATE_LIMITED":
                # The server did not read the message, so the error has no id: every move not
                # answered yet goes again (one already played gets a harmless STALE_PLY).
                for move in self.sent_moves.values():
                    asyncio.ensure_future(self.send_again_later(move))
                self.sent_moves.clear()
            else:
                self.sent_moves.pop(m.get("id"), None)

        return True


async def run(opts):
    headers = {"Authorization": "Bearer " + opts.token}
    async with websockets.connect(opts.url, extra_headers=headers, max_size=2 ** 22) as ws:
        bot = RandomBot(ws, opts)
        try:
            async for raw in ws:
                print("<-", raw if len(raw) < 300 else raw[:300] + "...", flush=True)
                if not await bot.on_message(json.loads(raw)):
                    return 0
        except websockets.ConnectionClosed:
            pass
    print("random_bot: the server closed the connection (%s %s)" % (ws.close_code, ws.close_reason),
          file=sys.stderr)
    return 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default=os.environ.get("CHESS_URL", "ws://localhost:8080/ws"))
    p.add_argument("--token", default=os.environ.get("CHESS_BOT_TOKEN"),
                   help="the bot token (default: $CHESS_BOT_TOKEN)")
    p.add_argument("--challenge", metavar="PLAYER_ID", help="challenge this player")
    p.add_argument("--seek", action="store_true", help="create a public seek")
    p.add_argument("--computer", type=int, metavar="LEVEL", help="play the computer (1-8)")
    p.add_argument("--count", type=int, default=1, help="games to start that way at once")
    p.add_argument("--time", default="1+0", help='time control "minutes+increment", "Nd" (a daily game) or unlimited')
    p.add_argument("--games", type=int, default=0, help="quit after this many games (0: never)")
    p.add_argument("--max-games", type=int, default=8, help="games at once before declining")
    p.add_argument("--rematch", action="store_true", help="accept rematch offers")
    opts = p.parse_args()
    if not opts.token:
        p.error("a bot token is needed: --token or CHESS_BOT_TOKEN")
    try:
        sys.exit(asyncio.run(run(opts)))
    except (OSError, websockets.InvalidHandshake) as e:
        sys.exit("random_bot: cannot connect to %s: %s" % (opts.url, e))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
