#!/usr/bin/python3
"""
UCI bridge: plays any UCI engine (for example Debian's /usr/games/stockfish) on this chess server
as a bot account, like lichess-bot does for lichess. Protocol: docs/bots.md.

- Connects to /ws with the bot token in the Authorization header; after a dropped connection it
  reconnects with exponential backoff (1 s doubling to --max-backoff, with jitter) and resumes
  every game in progress from the `welcome` the server sends back.
- Accepts challenges by a policy: time controls (--min-initial, --max-initial, --max-increment,
  --allow-unlimited, --allow-daily for daily games with days per move), rated and casual games (--no-rated, --no-casual), at most --max-games games
  at once, and an optional allow-list of players (--allow ID_OR_NAME). Others are declined with a
  reason the challenger sees.
- Plays several games at once, one engine process per game. The engine gets the clocks
  (go wtime/btime/winc/binc, less --move-overhead), optionally capped by --depth or --movetime;
  games without a clock, and daily games, use --movetime (default 1000 ms).
- Can start games itself: --play-computer LEVEL (the server's own engine) or --challenge
  PLAYER_ID, with --time: --games of them (at most --max-games at once). With --games it stops
  after that many games; without, it runs until stopped.
- Declines draw offers and takebacks, and rematches unless --rematch.
- Logs one line per event: connection, challenge decisions, game start, each move with the time
  the engine had, game end.

Settings come from flags, or a JSON file (--config) whose keys are the flags' long names with
underscores ({"engine": "/usr/games/stockfish", "uci_option": ["Threads=1"], "max_games": 4});
flags win over the file. The URL and the token may also come from CHESS_URL and CHESS_BOT_TOKEN.

Run:  CHESS_BOT_TOKEN=... /usr/bin/python3 bots/uci_bridge.py --url ws://localhost:8080/ws \\
          --engine /usr/games/stockfish --uci-option "Skill Level=5" --max-games 4
Needs only Debian's python3-websockets.
"""
import argparse
import asyncio
import json
import logging
import os
import random
import sys
import time

try:
    import websockets
except ImportError:
    sys.exit("uci_bridge: python3-websockets is missing (apt-get install python3-websockets; "
             "run with /usr/bin/python3)")

log = logging.getLogger("uci_bridge")

STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
EXIT_BAD_TOKEN = 2


class EngineError(Exception):
    pass


class Engine:
    """One UCI engine process, owned by one game."""

    def __init__(self, path, options, name):
        self.path = path
        self.options = options
        self.name = name
        self.proc = None

    async def start(self):
        try:
            self.proc = await asyncio.create_subprocess_exec(
                self.path, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL)
        except OSError as e:
            raise EngineError("cannot start %s: %s" % (self.path, e))
        self.send("uci")
        await self.read_until("uciok")
        for name, value in self.options:
            self.send("setoption name %s value %s" % (name, value))
        self.send("ucinewgame")
        self.send("isready")
        await self.read_until("readyok")

    def send(self, line):
        log.debug("%s <- %s", self.name, line)
        self.proc.stdin.write((line + "\n").encode())

    async def read_until(self, word):
        """Reads engine output up to the line starting with word; returns that line."""
        while True:
            raw = await self.proc.stdout.readline()
            if not raw:
                raise EngineError("%s exited (code %s)" % (self.path, self.proc.returncode))
            line = raw.decode(errors="replace").strip()
            if line.startswith(word):
                log.debug("%s -> %s", self.name, line)
                return line

    async def best_move(self, initial_fen, moves, go):
        start = "startpos" if initial_fen == STANDARD_START else "fen " + initial_fen
        self.send("position %s%s" % (start, " moves " + " ".join(moves) if moves else ""))
        self.send("go " + go)
        line = await self.read_until("bestmove")
        parts = line.split()
        if len(parts) < 2 or parts[1] in ("(none)", "0000"):
            raise EngineError("no move from the engine: " + line)
        return parts[1]

    def stop(self):
        if self.proc and self.proc.returncode is None:
            self.send("stop")

    async def quit(self):
        if not self.proc or self.proc.returncode is not None:
            return
        try:
            self.send("quit")
            await asyncio.wait_for(self.proc.wait(), 2)
        except (asyncio.TimeoutError, ConnectionError):
            self.proc.kill()
            await self.proc.wait()


class Game:
    """What the bridge knows about one game in progress."""

    def __init__(self, state, me, engine):
        self.id = state["id"]
        self.color = "white" if state["white"]["id"] == me else "black"
        opponent = state["black" if self.color == "white" else "white"]
        self.opponent = opponent["name"]
        self.initial_fen = state["initial_fen"]
        tc = state["time"]
        self.increment_ms = tc["increment"] * 1000 if isinstance(tc, dict) and "increment" in tc else 0
        self.daily = isinstance(tc, dict) and "days" in tc  # days per move: no clock to share
        self.engine = engine
        self.thinking = False
        self.update(state)

    def update(self, state):
        """A full game state (game_started, or a game in welcome)."""
        self.moves = list(state["moves"])
        self.ply = state["ply"]
        self.turn = state["turn"]
        self.set_clock(state["clock"])

    def set_clock(self, clock):
        self.clock = clock
        self.clock_at = time.monotonic()

    def our_turn(self):
        return self.turn == self.color


class Bridge:
    def __init__(self, cfg):
        self.cfg = cfg
        self.ws = None
        self.me = None
        self.games = {}          # id -> Game
        self.accepting = set()   # challenges accepted whose game has not started yet
        self.started = 0         # games we started ourselves (--play-computer, --challenge)
        self.finished = 0
        self.past = {}           # ended games' ids -> our colour (for rematch offers)
        self.fatal = None        # why not to reconnect
        self.done = asyncio.Event()
        self.next_id = 0
        self.sent_moves = {}     # request id -> game id, until the move is played or refused

    # ---- connection ----

    async def run(self):
        backoff = 1.0
        while not self.done.is_set():
            connected = False
            headers = {"Authorization": "Bearer " + self.cfg.token}
            try:
                async with websockets.connect(self.cfg.url, extra_headers=headers,
                                              max_size=2 ** 22) as ws:
                    self.ws = ws
                    connected = True
                    log.info("connected to %s", self.cfg.url)
                    backoff = 1.0
                    reader = asyncio.ensure_future(self.read(ws))
                    finished = asyncio.ensure_future(self.done.wait())
                    await asyncio.wait({reader, finished}, return_when=asyncio.FIRST_COMPLETED)
                    for task in (reader, finished):
                        task.cancel()
                    reason = "closed, code %s %s" % (ws.close_code, ws.close_reason)
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException) as e:
                reason = "%s: %s" % (type(e).__name__, e)
            self.ws = None
            if self.fatal or self.done.is_set():
                break
            delay = backoff * random.uniform(0.8, 1.2)
            log.warning("%s (%s); reconnecting in %.1f s",
                        "connection lost" if connected else "cannot connect", reason, delay)
            await asyncio.sleep(delay)
            backoff = min(backoff * 2, self.cfg.max_backoff)
        for game in list(self.games.values()):
            await game.engine.quit()
        if self.fatal:
            log.error("%s", self.fatal)
            return EXIT_BAD_TOKEN
        return 0

    async def read(self, ws):
        try:
            async for raw in ws:
                await self.on_message(json.loads(raw))
        except websockets.ConnectionClosed:
            pass

    async def send(self, msg):
        """Sends a request; a dropped connection is survived (the state is resent on welcome)."""
        self.next_id += 1
        msg["id"] = self.next_id
        try:
            if self.ws:
                await self.ws.send(json.dumps(msg))
                return
        except websockets.ConnectionClosed:
            pass
        log.info("%s not sent: the connection is down", msg["type"])

    # ---- events ----

    async def on_message(self, m):
        kind = m["type"]
        handler = getattr(self, "on_" + kind, None)
        if handler:
            await handler(m)

    async def on_welcome(self, m):
        self.me = m["player"]["id"]
        self.sent_moves.clear()  # requests of the old connection get no reply
        log.info("playing as %s (%s), %d game(s) in progress", m["player"]["name"], self.me,
                 len(m["games"]))
        live = {g["id"] for g in m["games"]}
        for gid in [gid for gid in self.games if gid not in live]:
            log.info("game=%s ended while the connection was down", gid)
            await self.end_game(gid)
        for state in m["games"]:
            await self.on_game_state(state)
        await self.start_more_games()

    async def on_error(self, m):
        self.sent_moves.pop(m.get("id"), None)
        if m["code"] == "RATE_LIMITED":
            # Not read by the server, so no id: every move not answered yet is searched and sent
            # again (one already played is simply not our turn any more).
            for gid in set(self.sent_moves.values()) & set(self.games):
                log.warning("game=%s: RATE_LIMITED; moving again in 1 s", gid)
                asyncio.get_running_loop().call_later(1, self.think, self.games[gid])
            self.sent_moves.clear()
        elif m["code"] == "BAD_TOKEN":
            self.fatal = "the server refused the token (BAD_TOKEN): check --token"
            self.done.set()
        elif m["code"] != "STALE_PLY":  # a move for a position that has moved on: harmless
            log.warning("server error %s: %s", m["code"], m.get("message"))

    async def on_challenge_received(self, m):
        c = m["challenge"]
        reason = self.policy(c)
        who = c["player"]["name"]
        if reason:
            log.info("challenge %s from %s declined: %s", c["id"], who, reason)
            await self.send({"type": "challenge_decline", "challenge": c["id"], "reason": reason})
        else:
            log.info("challenge %s from %s accepted", c["id"], who)
            self.accepting.add(c["id"])
            await self.send({"type": "challenge_accept", "challenge": c["id"]})

    async def on_challenge_removed(self, m):
        self.accepting.discard(m["challenge"])
        if m.get("reason") == "declined" and m.get("decline_reason"):
            log.info("challenge %s declined: %s", m["challenge"], m["decline_reason"])

    def policy(self, c):
        """Why a challenge is declined, or None to accept it."""
        cfg = self.cfg
        player = c["player"]
        if cfg.allow and player["id"] not in cfg.allow and player["name"] not in cfg.allow:
            return "generic"
        if len(self.games) + len(self.accepting) >= cfg.max_games:
            return "too_many_games"
        tc = c["time"]
        if tc == "unlimited":
            if not cfg.allow_unlimited:
                return "time_control"
        elif "days" in tc:
            if not cfg.allow_daily:
                return "time_control"
        elif not (cfg.min_initial <= tc["minutes"] * 60 <= cfg.max_initial and
                  tc["increment"] <= cfg.max_increment):
            return "time_control"
        if c.get("rated") and not cfg.rated:
            return "rated"
        if not c.get("rated") and not cfg.casual:
            return "casual"
        return None

    async def on_game_started(self, m):
        await self.on_game_state(m["game"])

    async def on_game_state(self, state):
        if state["status"] != "playing":
            return
        game = self.games.get(state["id"])
        if game:
            game.update(state)
        else:
            engine = Engine(self.cfg.engine, self.cfg.uci_options, "engine[%s]" % state["id"])
            try:
                await engine.start()
            except EngineError as e:
                log.error("game=%s: %s; resigning", state["id"], e)
                await self.send({"type": "resign", "game": state["id"]})
                return
            game = Game(state, self.me, engine)
            self.games[game.id] = game
            log.info("game=%s vs %s as %s, %s, %s", game.id, game.opponent, game.color,
                     describe_time(state["time"]), "rated" if state.get("rated") else "casual")
        self.think(game)

    async def on_move(self, m):
        self.sent_moves.pop(m.get("id"), None)
        game = self.games.get(m["game"])
        if not game:
            return
        if m["ply"] != game.ply + 1:  # a gap: ask for the full state
            await self.send({"type": "watch", "game": game.id})
            return
        game.moves.append(m["uci"])
        game.ply, game.turn = m["ply"], m["turn"]
        game.set_clock(m["clock"])
        self.think(game)

    async def on_game(self, m):  # the reply to watch: the full state
        if m["game"]["id"] in self.games:
            await self.on_game_state(m["game"])

    async def on_takeback(self, m):
        game = self.games.get(m["game"])
        if game:
            del game.moves[m["ply"]:]
            game.ply, game.turn = m["ply"], m["turn"]
            game.set_clock(m["clock"])
            self.think(game)

    async def on_offer(self, m):
        game = self.games.get(m["game"])
        color = game.color if game else self.past.get(m["game"])
        if not color or m["by"] == color:
            return
        if m["kind"] == "rematch" and self.cfg.rematch:
            log.info("game=%s: rematch accepted", m["game"])
            await self.send({"type": "rematch_accept", "game": m["game"]})
        else:
            log.info("game=%s: %s offer declined", m["game"], m["kind"])
            await self.send({"type": m["kind"] + "_decline", "game": m["game"]})

    async def on_game_end(self, m):
        game = self.games.get(m["game"])
        if not game:
            return
        log.info("game=%s ended %s (%s)", game.id, m["result"], m["reason"])
        await self.end_game(game.id)
        if self.cfg.rematch:
            await self.send({"type": "rematch_offer", "game": game.id})
        if self.cfg.games and self.finished >= self.cfg.games:
            log.info("%d game(s) played: done", self.finished)
            self.done.set()
        else:
            await self.start_more_games()

    async def end_game(self, gid):
        game = self.games.pop(gid)
        self.past[gid] = game.color
        self.finished += 1
        game.engine.stop()
        await game.engine.quit()

    # ---- playing ----

    def think(self, game):
        if not game.thinking and game.our_turn():
            game.thinking = True
            asyncio.ensure_future(self.think_loop(game))

    async def think_loop(self, game):
        """Searches until a move is sent for the current position; a position that changes
        meanwhile (a takeback, a state after a reconnect) is searched again."""
        try:
            while game.id in self.games and game.our_turn():
                ply = game.ply
                go = self.go_command(game)
                start = time.monotonic()
                move = await game.engine.best_move(game.initial_fen, game.moves, go)
                if game.id not in self.games or game.ply != ply:
                    continue
                log.info("game=%s ply=%d %s (go %s; %.0f ms)", game.id, ply + 1, move, go,
                         (time.monotonic() - start) * 1000)
                msg = {"type": "move", "game": game.id, "move": move, "ply": ply}
                await self.send(msg)
                self.sent_moves[msg["id"]] = game.id
                break
        except EngineError as e:
            if game.id in self.games:  # else the game ended and its engine was stopped
                log.error("game=%s: %s; resigning", game.id, e)
                await self.send({"type": "resign", "game": game.id})
        finally:
            game.thinking = False

    def go_command(self, game):
        cfg = self.cfg
        limits = []
        if game.clock and not game.daily:
            elapsed = int((time.monotonic() - game.clock_at) * 1000)
            mine = max(game.clock[game.color] - elapsed - cfg.move_overhead, 10)
            other = "black" if game.color == "white" else "white"
            times = {game.color: mine, other: game.clock[other]}
            limits.append("wtime %d btime %d winc %d binc %d" % (
                times["white"], times["black"], game.increment_ms, game.increment_ms))
            if cfg.movetime:
                limits.append("movetime %d" % min(cfg.movetime, mine))
        else:
            limits.append("movetime %d" % (cfg.movetime or 1000))
        if cfg.depth:
            limits.append("depth %d" % cfg.depth)
        return " ".join(limits)

    async def start_more_games(self):
        cfg = self.cfg
        if not (cfg.play_computer or cfg.challenge):
            return
        while self.started < cfg.games and len(self.games) < cfg.max_games:
            self.started += 1
            tc = parse_time(cfg.time)
            if cfg.play_computer:
                log.info("starting a game against the computer at level %d", cfg.play_computer)
                await self.send({"type": "computer_play", "level": cfg.play_computer, "time": tc,
                                 "color": "random"})
            else:
                log.info("challenging %s", cfg.challenge)
                await self.send({"type": "challenge_create", "player": cfg.challenge,
                                 "time": tc, "color": "random"})


def parse_time(text):
    if text == "unlimited":
        return text
    if text.endswith("d"):  # "3d": a daily game, 3 days per move
        return {"days": int(text[:-1])}
    minutes, increment = text.split("+")
    return {"minutes": float(minutes), "increment": int(increment)}


def describe_time(tc):
    if tc == "unlimited":
        return tc
    if "days" in tc:
        return "%d days per move" % tc["days"]
    return "%g+%d" % (tc["minutes"], tc["increment"])


def load_config(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", help="a JSON file of settings (keys: the flags' long names)")
    p.add_argument("--url", help="ws://HOST:PORT/ws (default $CHESS_URL or ws://localhost:8080/ws)")
    p.add_argument("--token", help="the bot token (default $CHESS_BOT_TOKEN)")
    p.add_argument("--engine", help="the UCI engine's program (default /usr/games/stockfish)")
    p.add_argument("--uci-option", action="append", dest="uci_option", metavar="NAME=VALUE",
                   help='an engine option, repeatable ("Skill Level=5", "Threads=1")')
    p.add_argument("--depth", type=int, help="cap every search at this depth")
    p.add_argument("--movetime", type=int, help="cap every search at this many ms (and the "
                   "time per move without a clock; default 1000 there)")
    p.add_argument("--move-overhead", type=int, help="ms kept back from the clock for the "
                   "network (default 300)")
    p.add_argument("--max-games", type=int, help="games at once (default 4)")
    p.add_argument("--min-initial", type=float, help="accepted initial time, seconds (default 0)")
    p.add_argument("--max-initial", type=float, help="(default 10800)")
    p.add_argument("--max-increment", type=int, help="accepted increment, seconds (default 180)")
    p.add_argument("--allow-unlimited", action="store_const", const=True,
                   help="accept games without a clock")
    p.add_argument("--allow-daily", action="store_const", const=True,
                   help="accept daily (correspondence) games, days per move")
    p.add_argument("--no-rated", dest="rated", action="store_const", const=False,
                   help="decline rated games")
    p.add_argument("--no-casual", dest="casual", action="store_const", const=False,
                   help="decline casual games")
    p.add_argument("--allow", action="append", metavar="ID_OR_NAME",
                   help="accept challenges only from these players (repeatable)")
    p.add_argument("--rematch", action="store_const", const=True,
                   help="offer a rematch after each game and accept the opponent's")
    p.add_argument("--play-computer", type=int, metavar="LEVEL",
                   help="play the server's computer at this level (1-8)")
    p.add_argument("--challenge", metavar="PLAYER_ID", help="challenge this player")
    p.add_argument("--time", help='time control for games we start, "minutes+increment" '
                   'or "Nd" for a daily game (default 1+0)')
    p.add_argument("--games", type=int, help="stop after this many games, and start that many "
                   "with --play-computer or --challenge (default 0: run until stopped)")
    p.add_argument("--max-backoff", type=float, help="longest wait between reconnection "
                   "attempts, seconds (default 30)")
    p.add_argument("--log-level", help="debug, info (default), warning")
    args = vars(p.parse_args(argv))
    defaults = {
        "url": os.environ.get("CHESS_URL", "ws://localhost:8080/ws"),
        "token": os.environ.get("CHESS_BOT_TOKEN"), "engine": "/usr/games/stockfish",
        "uci_option": [], "depth": 0, "movetime": 0, "move_overhead": 300, "max_games": 4,
        "min_initial": 0, "max_initial": 10800, "max_increment": 180, "allow_unlimited": False,
        "allow_daily": False,
        "rated": True, "casual": True, "allow": [], "rematch": False,
        "play_computer": 0, "challenge": None, "time": "1+0", "games": 0, "max_backoff": 30.0,
        "log_level": "info",
    }
    settings = dict(defaults)
    if args["config"]:
        try:
            with open(args["config"]) as f:
                from_file = json.load(f)
        except (OSError, ValueError) as e:
            p.error("cannot read %s: %s" % (args["config"], e))
        unknown = set(from_file) - set(defaults)
        if unknown:
            p.error("%s: unknown settings %s" % (args["config"], ", ".join(sorted(unknown))))
        settings.update(from_file)
    settings.update({k: v for k, v in args.items() if v is not None and k != "config"})
    cfg = argparse.Namespace(**settings)
    if not cfg.token:
        p.error("a bot token is needed: --token, CHESS_BOT_TOKEN or the config file")
    cfg.uci_options = []
    for item in cfg.uci_option:
        name, sep, value = item.partition("=")
        if not sep:
            p.error("--uci-option wants NAME=VALUE, got %r" % item)
        cfg.uci_options.append((name.strip(), value.strip()))
    return cfg


def main(argv=None):
    cfg = load_config(argv)
    logging.basicConfig(level=getattr(logging, cfg.log_level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stdout)
    try:
        return asyncio.run(Bridge(cfg).run())
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
