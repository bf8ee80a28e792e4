"""
lichess-bot, unchanged, against this server (docs/http-api.md, "lichess-bot"): a local check,
not part of the test command, because lichess-bot and python-chess are not Debian packages.

    LICHESS_BOT_DIR=~/src/lichess-bot PYTHON_CHESS_DIR=~/src/python-chess \\
        /usr/bin/python3 tests/interop/lichess_bot.py --server build/release/server/chess_server \\
        [--games 2] [--transcript out.ndjson]

It starts the real server with a fresh data directory, registers an owner and a bot account over
the WebSocket protocol, writes a lichess-bot configuration whose url is this server and whose
token is the bot's, and runs lichess-bot (its own lichess-bot.py, its own dependencies: Debian's
python3-requests, python3-yaml, python3-backoff, python3-rich, and python-chess from
PYTHON_CHESS_DIR) with Stockfish as its engine. A person on the WebSocket protocol then
challenges the bot and plays random legal moves until each game ends; the bot's event stream and
game stream are recorded alongside (a second token reading the same streams would be refused,
one stream per game per token, so the transcript is read by the person's client from the same
endpoints with a second bot token of the same bot). Exits 0 when every game ended with a result
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
from lichess_api import Api  # noqa: E402


def config_text(url, token, engine_dir, engine_name):
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
    - standard
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


async def play_game(srv, person, bot_id, chess, seed):
    """The person challenges the bot and plays random legal moves; returns the game_end."""
    rng = random.Random(seed)
    created = await person.ok({"type": "challenge_create", "player": bot_id,
                               "time": {"minutes": 1, "increment": 1}, "color": "white"})
    started = await person.recv_type("game_started", timeout=30)
    gid = started["game"]["id"]
    board = chess.Board()
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
    opts = ap.parse_args()
    lb_dir = os.environ.get("LICHESS_BOT_DIR")
    chess_dir = os.environ.get("PYTHON_CHESS_DIR")
    if not lb_dir or not chess_dir:
        print("skipped: set LICHESS_BOT_DIR and PYTHON_CHESS_DIR (checkouts of lichess-bot and "
              "python-chess)")
        return 77
    sys.path.insert(0, chess_dir)
    import chess  # noqa: E402
    stockfish = shutil.which("stockfish") or "/usr/games/stockfish"
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
    config = os.path.join(work, "config.yml")
    with open(config, "w") as f:
        f.write(config_text("http://127.0.0.1:%d/" % srv.port, token,
                            os.path.dirname(stockfish), os.path.basename(stockfish)))
    log_path = os.path.join(work, "lichess-bot.log")
    env = dict(os.environ, PYTHONPATH=chess_dir)
    bot = subprocess.Popen([sys.executable, "lichess-bot.py", "--config", config,
                            "--disable_auto_logging"],
                           cwd=lb_dir, env=env, stdout=open(log_path, "w"),
                           stderr=subprocess.STDOUT)
    transcript = []
    try:
        person = await srv.player("Person")
        await wait_online(person, bot_id, timeout=60)
        print("lichess-bot is online (its event stream is open)")
        for n in range(opts.games):
            t0 = time.monotonic()
            gid, end = await play_game(srv, person, bot_id, chess, n)
            print("game %s: %s %s in %.1f s" % (gid, end["result"], end["reason"],
                                                 time.monotonic() - t0))
            if end["reason"] == "aborted":
                raise AssertionError("the game was aborted: lichess-bot did not play")
            status, _, pgn = Api(srv.port, watch_token).request("GET", "/game/export/" + gid)
            transcript.append({"game": gid, "end": end, "pgn": pgn.decode()})
        return 0
    finally:
        bot.terminate()
        try:
            bot.wait(10)
        except subprocess.TimeoutExpired:
            bot.kill()
        with open(log_path) as f:
            log = f.read()
        if opts.transcript:
            with open(opts.transcript, "w") as f:
                json.dump({"games": transcript, "lichess_bot_log": log}, f, indent=1)
        print("---- lichess-bot log (last 40 lines) ----")
        print("\n".join(log.splitlines()[-40:]))


if __name__ == "__main__":
    sys.exit(main())
