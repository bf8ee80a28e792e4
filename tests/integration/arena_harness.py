"""
Arena tournaments against the real server (docs/tournaments.md): accounts that play their arena
games with random legal moves (taken from the game's "dests", the promotion to a queen), some of
them berserk, and the standings recomputed independently from the archive: lichess's scoring
(2 a win, 1 a draw, double on fire after two wins in a row, +1 for a berserk win of at least 7
own moves), performance, and the order by score, performance and joining order.
"""
import asyncio
import random
import time

from harness import Client

BULLET = {"minutes": 1, "increment": 0}


async def account(srv, name):
    """A connected account named name (registered through the protocol)."""
    c = await srv.player()
    await c.ok({"type": "register", "username": name, "password": "password " + name})
    return c


def piece_at(fen, square):
    """The piece letter on a square ("e2") of a FEN's board, or None."""
    rows = fen.split()[0].split("/")
    row = rows[8 - int(square[1])]
    col = ord(square[0]) - ord("a")
    i = 0
    for ch in row:
        if ch.isdigit():
            i += int(ch)
            continue
        if i == col:
            return ch
        i += 1
    return None


def random_move(rng, fen, dests):
    """A random legal move of the position (dests: square -> targets), in UCI."""
    frm = rng.choice(sorted(dests))
    to = rng.choice(dests[frm])
    piece = piece_at(fen, frm)
    if piece in ("P", "p") and to[1] in ("1", "8"):
        to += "q"
    return frm + to


class Bot:
    """One account playing its arena games with random moves, as fast as `delay` allows; goes
    berserk in a share of its games before its first move, and resigns at a move now and then
    (random games are long and mostly drawn)."""

    def __init__(self, client, seed, berserk_share=0.25, resign_share=0.01, delay=(0.01, 0.1)):
        self.client = client
        self.rng = random.Random(seed)
        self.berserk_share = berserk_share
        self.resign_share = resign_share
        self.delay = delay
        self.games = {}  # id -> {"color", "fen", "dests", "turn", "moved"}
        self.ended = 0
        self.berserks = 0
        self.running = True
        self.task = None

    @property
    def id(self):
        return self.client.player["id"]

    def start(self):
        self.task = asyncio.ensure_future(self.loop())

    async def stop(self):
        self.running = False
        if self.task:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass

    def adopt(self, game):
        """A game in progress (GameFull) this bot plays."""
        color = "white" if game["white"]["id"] == self.id else "black"
        mine = game["ply"] > (0 if color == "white" else 1)
        self.games[game["id"]] = {"color": color, "fen": game["fen"], "dests": game.get("dests"),
                                  "turn": game["turn"], "moved": mine}

    async def play_turn(self, gid):
        g = self.games.get(gid)
        if not g or g["turn"] != g["color"] or not g["dests"]:
            return
        await asyncio.sleep(self.rng.uniform(*self.delay))
        if not g["moved"] and self.rng.random() < self.berserk_share:
            await self.client.send({"type": "arena_berserk", "game": gid})
            self.berserks += 1
        if g["moved"] and self.rng.random() < self.resign_share:
            g["dests"] = None
            await self.client.send({"type": "resign", "game": gid})
            return
        g["moved"] = True
        g["dests_used"] = g["dests"]
        g["dests"] = None  # until the move event
        await self.client.send({"type": "move", "game": gid,
                                "move": random_move(self.rng, g["fen"], g["dests_used"])})

    async def loop(self):
        while self.running:
            msg = await self.client._read(600)
            kind = msg.get("type")
            if kind == "game_started":
                self.adopt(msg["game"])
                await self.play_turn(msg["game"]["id"])
            elif kind == "move":
                g = self.games.get(msg["game"])
                if g:
                    g.update(fen=msg["fen"], turn=msg["turn"], dests=msg.get("dests"))
                    await self.play_turn(msg["game"])
            elif kind == "game_end":
                if self.games.pop(msg["game"], None) is not None:
                    self.ended += 1
            elif kind == "error" and msg.get("code") not in ("GAME_OVER", "BERSERK_NOT_ALLOWED",
                                                           "NOT_YOUR_TURN", "STALE_PLY"):
                raise AssertionError("bot %s: %s" % (self.id, msg))


async def reconnect(srv, token):
    """A new connection for the account with this token: (client, welcome)."""
    c = await srv.connect()
    welcome = await c.hello(token=token)
    return c, welcome


def recompute(rows, players):
    """The standings from the archive: rows (game id, white, black, result, berserk white,
    berserk black, plies) in the order the games ended; players [(id, rating)] in joining order.
    Returns [{"id", "score", "games", "wins", "draws", "losses", "sheet", "performance"}] in
    rank order."""
    st = {pid: {"id": pid, "rating": rating, "seq": i, "score": 0, "streak": 0, "games": 0,
                "wins": 0, "draws": 0, "losses": 0, "sheet": [], "opp": 0}
          for i, (pid, rating) in enumerate(players)}
    for _gid, white, black, result, bw, bb, plies in rows:
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue  # aborted: no score
        outcome = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[result]
        for side, pid, opp, berserk, own in ((1, white, black, bw, (plies + 1) // 2),
                                             (-1, black, white, bb, plies // 2)):
            p, o = st[pid], st[opp]
            mine = outcome * side
            points = 2 if mine > 0 else 1 if mine == 0 else 0
            if p["streak"] >= 2:
                points *= 2
            if mine > 0 and berserk and own >= 7:
                points += 1
            p["score"] += points
            p["streak"] = p["streak"] + 1 if mine > 0 else 0
            p["games"] += 1
            p["wins"] += mine > 0
            p["draws"] += mine == 0
            p["losses"] += mine < 0
            p["opp"] += o["rating"]
            p["sheet"].append(points)
    for p in st.values():
        # C's integer division: toward zero.
        num, games = p["opp"] + 500 * (p["wins"] - p["losses"]), p["games"]
        p["performance"] = (p["rating"] if games == 0 else
                            abs(num) // games * (1 if num >= 0 else -1))
    return sorted(st.values(), key=lambda p: (-p["score"], -p["performance"], p["seq"]))


def archive_rows(data, arena):
    """An arena's finished games as the database keeps them, in the order they ended."""
    return data.query(
        "SELECT id, white_id, black_id, result, berserk_white, berserk_black, ply_count "
        "FROM games WHERE arena_id = ? AND status = 'ended' ORDER BY ended_at, id", (arena,))


def arena_players(data, arena):
    return data.query("SELECT player_id, rating FROM arena_players WHERE arena_id = ? "
                      "ORDER BY seq", (arena,))


def compare(expected, standings):
    """The server's standings (ArenaStanding[]) against the recomputed ones."""
    assert len(expected) == len(standings), (len(expected), len(standings))
    for rank, (e, s) in enumerate(zip(expected, standings), 1):
        got = {k: s[k] for k in ("score", "games", "wins", "draws", "losses", "sheet",
                                 "performance")}
        want = {k: e[k] for k in got}
        assert s["player"]["id"] == e["id"] and s["rank"] == rank and got == want, \
            "rank %d: server %s %s, archive %s %s" % (rank, s["player"]["id"], got, e["id"], want)


async def watch_until(client, arena, status, timeout):
    """Watches an arena until its standings say `status`: the last arena_standings (or the
    arena's state when it already has it). The pushes come at most once a second: checked on
    their count over the time they spanned."""
    state = await client.ok({"type": "arena_watch", "arena": arena})
    if state["arena"]["status"] == status:
        return state["arena"]
    deadline = time.time() + timeout
    arrivals = []
    while True:
        msg = await client.recv_type("arena_standings", timeout=max(1, deadline - time.time()),
                                     arena=arena)
        arrivals.append(time.monotonic())
        if msg["status"] == status:
            span = arrivals[-1] - arrivals[0]
            assert len(arrivals) <= span + 2, "%d pushes in %.1f s" % (len(arrivals), span)
            return msg


async def joined(server, aid, count):
    """count accounts ("arena00", ...) that joined arena aid on server and disconnected: their
    tokens."""
    tokens = []
    for i in range(count):
        c = await account(server, "arena%02d" % i)
        await c.ok({"type": "arena_join", "arena": aid})
        tokens.append(c.token)
        await c.close()
    return tokens


async def bots_back(server, tokens, seed, **bot_options):
    """The players of these tokens connected to server again, each a Bot (bot_options its
    shares) playing its games in progress (those of its welcome) and the next ones."""
    bots = []
    for i, token in enumerate(tokens):
        c = await server.player(token=token)
        bot = Bot(c, seed=seed + i, **bot_options)
        for g in c.welcome["games"]:
            bot.adopt(g)
        bots.append(bot)
    for b in bots:
        b.start()
        for gid in list(b.games):
            await b.play_turn(gid)
    return bots


async def stop_all(bots):
    for b in bots:
        await b.stop()
