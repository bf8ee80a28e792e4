"""
lichess-bot, unchanged, against this server (docs/http-api.md, "lichess-bot"): a local check,
not part of the test command, because lichess-bot and python-chess are not Debian packages.

    LICHESS_BOT_DIR=~/src/lichess-bot PYTHON_CHESS_DIR=~/src/python-chess \\
        /usr/bin/python3 tests/interop/lichess_bot.py --server build/release/server/chess_server \\
        [--games 2] [--transcript transcript.json] [--variant chess960] [--engine PATH]

It starts the real server with a fresh data directory, registers an owner and a bot account over
the WebSocket protocol, writes a lichess-bot configuration whose url is this server and whose
token is the bot's, and runs lichess-bot (its own lichess-bot.py, its own dependencies: Debian's
python3-requests, python3-yaml, python3-backoff, python3-rich, and python-chess from
PYTHON_CHESS_DIR) with Stockfish as its engine (or --engine, e.g. this project's own
build/release/engine/uci, which knows UCI_Variant). A person on the WebSocket protocol then
challenges the bot, in --variant (standard, chess960, threeCheck or kingOfTheHill: lichess-bot
reads it from the game and sets its board and engine for it), and plays random legal moves,
from python-chess's board of that variant, until each game ends.

With --transcript FILE, the bot's event stream and each game's stream are read alongside
lichess-bot, as the server sends them (keep-alive newlines included, each line with the seconds
since lichess-bot was started), with a second bot token of the same bot: the server allows one
game stream per game per token, so lichess-bot's own token could not read them twice. FILE gets
them as JSON, with each game's end and PGN, lichess-bot's log, and the lichess-bot and
python-chess commits. Exits 0 when every game ended with a result
and lichess-bot made its moves; 77 when LICHESS_BOT_DIR or PYTHON_CHESS_DIR is not set.
"""
import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))

from harness import Server, bot_account, load_declarations, wait_online  # noqa: E402
from lichess_api import Api, Stream  # noqa: E402


class RecordedStream(Stream):
    """A stream whose lines are also kept as the server sent them, keep-alive newlines included,
    each with the seconds since t0: [[seconds, text], ...]."""

    def __init__(self, api, path, t0):
        self.t0 = t0
        self.raw = []
        super().__init__(api, path)

    def _read(self):
        readline = self.resp.readline

        def recording():
            line = readline()
            if line:
                self.raw.append([round(time.monotonic() - self.t0, 3), line.decode().rstrip("\n")])
            return line

        self.resp.readline = recording
        super()._read()


def commit_of(directory):
    try:
        return subprocess.check_output(["git", "-C", directory, "log", "-1", "--format=%h"],
                                       text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def config_text(url, token, engine_dir, engine_name, variant):
    return f"""token: "{token}"
url: "{url}"
engine:
  dir: "{engine_dir}"
  name: "{engine_name}"
  protocol: "uci"
  ponder: false
  uci_options:
    Threads: 1
    Hash: 16
  silence_stderr: true
abort_time: 30
fake_think_time: false
move_overhead: 500
max_takebacks_accepted: 0
quit_after_all_games_finish: false
correspondence:
  move_time: 5
  checkin_period: 300
  disconnect_time: 150
  ponder: false
challenge:
  concurrency: 1
  sort_by: "first"
  accept_bot: true
  only_bot: false
  max_increment: 180
  min_increment: 0
  max_base: 10800
  min_base: 0
  variants:
    - {variant}
  time_controls:
    - bullet
    - blitz
    - rapid
    - classical
  modes:
    - casual
    - rated
greeting:
  hello: "Hi! I'm {{me}}."
  goodbye: "Good game!"
matchmaking:
  allow_matchmaking: false
"""


def variant_board(chess, variant, fen):
    """python-chess's board for a game of this variant from its first position."""
    if variant == "chess960":
        return chess.Board(fen, chess960=True)
    if variant in ("threeCheck", "kingOfTheHill"):
        import chess.variant  # noqa: E402
        return chess.variant.find_variant(variant)()
    return chess.Board()


async def play_game(srv, person, bot_id, chess, seed, variant, on_start=None):
    """The person challenges the bot and plays random legal moves; returns the game_end.
    on_start(game id) is awaited once the game has started, before the first move."""
    rng = random.Random(seed)
    await person.ok({"type": "challenge_create", "player": bot_id, "variant": variant,
                     "time": {"minutes": 1, "increment": 1}, "color": "white"})
    started = await person.recv_type("game_started", timeout=30)
    gid = started["game"]["id"]
    assert started["game"].get("variant", "standard") == variant, started
    if on_start:
        await on_start(gid)
    board = variant_board(chess, variant, started["game"]["fen"])
    while True:
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        reply = await person.request({"type": "move", "game": gid, "move": move.uci()})
        if reply.get("type") == "error":
            raise AssertionError("our move refused: %s" % reply)
        if reply.get("type") == "game_end" or board.is_game_over():
            return gid, await person.recv_type("game_end", 10, game=gid)
        # The bot's reply, or the end.
        m = await person.recv(lambda m: m.get("game") == gid and (
            m.get("type") == "game_end" or (m.get("type") == "move" and m.get("turn") == "white")),
            60, "the bot's move")
        if m["type"] == "game_end":
            return gid, m
        board.push_uci(m["uci"])
        if board.is_game_over():
            return gid, await person.recv_type("game_end", 10, game=gid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", required=True)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--transcript")
    ap.add_argument("--variant", default="standard",
                    choices=["standard", "chess960", "threeCheck", "kingOfTheHill"])
    ap.add_argument("--engine", help="the bot's UCI engine (default: Stockfish)")
    opts = ap.parse_args()
    lb_dir = os.environ.get("LICHESS_BOT_DIR")
    chess_dir = os.environ.get("PYTHON_CHESS_DIR")
    if not lb_dir or not chess_dir:
        print("skipped: set LICHESS_BOT_DIR and PYTHON_CHESS_DIR (checkouts of lichess-bot and "
              "python-chess)")
        return 77
    sys.path.insert(0, chess_dir)
    import chess  # noqa: E402
    stockfish = os.path.abspath(opts.engine) if opts.engine else (
        shutil.which("stockfish") or "/usr/games/stockfish")
    load_declarations(opts.server)
    srv = Server(os.path.abspath(opts.server))
    work = tempfile.mkdtemp(prefix="lichess-bot-")
    try:
        return asyncio.run(run(srv, opts, lb_dir, chess_dir, chess, stockfish, work))
    finally:
        srv.close()
        shutil.rmtree(work, ignore_errors=True)


async def run(srv, opts, lb_dir, chess_dir, chess, stockfish, work):
    owner, token, bot_id = await bot_account(srv, "Owner", "StockBot")
    watch_token = (await owner.ok({"type": "bot_token_create", "username": "StockBot"}))["token"]
    watch = Api(srv.port, watch_token)
    config = os.path.join(work, "config.yml")
    with open(config, "w") as f:
        f.write(config_text("http://127.0.0.1:%d/" % srv.port, token,
                            os.path.dirname(stockfish), os.path.basename(stockfish),
                            opts.variant))
    log_path = os.path.join(work, "lichess-bot.log")
    env = dict(os.environ, PYTHONPATH=chess_dir)
    bot = subprocess.Popen([sys.executable, "lichess-bot.py", "--config", config,
                            "--disable_auto_logging"],
                           cwd=lb_dir, env=env, stdout=open(log_path, "w"),
                           stderr=subprocess.STDOUT)
    t0 = time.monotonic()
    transcript = []
    events = None
    try:
        person = await srv.player("Person")
        await wait_online(person, bot_id, timeout=60)
        print("lichess-bot is online (its event stream is open)")
        if opts.transcript:
            # The bot's events as a second reader sees them, with the bot's second token.
            events = await asyncio.to_thread(RecordedStream, watch, "/api/stream/event", t0)
        for n in range(opts.games):
            t_game = time.monotonic()
            streams = []

            async def on_start(gid):
                if opts.transcript:
                    streams.append(await asyncio.to_thread(
                        RecordedStream, watch, "/api/bot/game/stream/" + gid, t0))

            gid, end = await play_game(srv, person, bot_id, chess, n, opts.variant, on_start)
            print("game %s: %s %s in %.1f s" % (gid, end["result"], end["reason"],
                                                 time.monotonic() - t_game))
            if end["reason"] == "aborted":
                raise AssertionError("the game was aborted: lichess-bot did not play")
            status, _, pgn = watch.request("GET", "/game/export/" + gid)
            record = {"game": gid, "end": end, "pgn": pgn.decode()}
            if streams:
                if not await asyncio.to_thread(streams[0].ended, 10):
                    raise AssertionError("the game stream did not end with its game")
                record["game_stream"] = streams[0].raw
            transcript.append(record)
        if events:
            await asyncio.sleep(1)  # the last gameFinish
        return 0
    finally:
        bot.terminate()
        try:
            bot.wait(10)
        except subprocess.TimeoutExpired:
            bot.kill()
        if events:
            events.close()
        with open(log_path) as f:
            log = f.read()
        if opts.transcript:
            with open(opts.transcript, "w") as f:
                json.dump({"lichess_bot_commit": commit_of(lb_dir),
                           "python_chess_commit": commit_of(chess_dir),
                           "event_stream": events.raw if events else [],
                           "games": transcript, "lichess_bot_log": log}, f, indent=1)
        print("---- lichess-bot log (last 40 lines) ----")
        print("\n".join(log.splitlines()[-40:]))


if __name__ == "__main__":
    sys.exit(main())
