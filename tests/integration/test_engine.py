#!/usr/bin/python3
"""
The engine worker pool in the real server: computer games to the end with several at once,
cancellation on resign, abort and takeback (a move found for an old position is never played),
the thinking indicator and the spectators' evaluation, analysis streams with their limits and
errors, table eviction under a tiny memory budget, and the engine turned off.

The human side of a computer game finds its moves with the server's own analysis (a shallow
search), so every move comes from the rules core and the games end by mate or a draw rule.
"""
import asyncio
import re

from harness import *

SERVER_ARGS = ["--engine-workers", "2", "--analysis-seconds", "2"]


def metric(srv, name):
    text = srv.http("/metrics")[2].decode()
    m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
    assert m, "metric %s missing" % name
    return float(m.group(1))


async def best_move(client, fen, depth=3):
    """The move a shallow analysis of the position prefers (UCI)."""
    started = await client.ok({"type": "analyse", "fen": fen, "depth": depth})
    aid = started["analysis"]
    done = await client.recv_type("analysis_done", timeout=10, analysis=aid)
    assert done["reason"] == "limit", done
    return done["best"]["uci"]


async def play_out(client, game, color, depth=3, max_plies=400):
    """Plays `color` against the computer until the game ends; returns the game_end message."""
    state = (await client.ok({"type": "watch", "game": game}))["game"]
    fen, ply, turn = state["fen"], state["ply"], state["turn"]
    while ply < max_plies:
        if turn == color:
            mv = await best_move(client, fen, depth)
            r = await client.ok({"type": "move", "game": game, "move": mv})
            if r.get("type") == "game_end":
                return r
        ev = await client.recv(lambda m: m.get("game") in (game, None) and
                               m.get("type") in ("move", "game_end") and
                               (m["type"] == "game_end" or m.get("ply", -1) > ply),
                               timeout=30, what="the next move or the end")
        if ev["type"] == "game_end":
            return ev
        fen, ply, turn = ev["fen"], ev["ply"], ev["turn"]
        # A move that ends the game is followed by game_end in the same batch.
        try:
            return await client.recv_type("game_end", timeout=0.1, game=game)
        except AssertionError:
            pass
    raise AssertionError("game %s did not end within %d plies" % (game, max_plies))


async def computer_game(srv, name, level, color, time_control="unlimited"):
    a = await srv.player(name)
    started = await a.ok({"type": "computer_play", "level": level, "color": color,
                          "time": time_control})
    assert started["type"] == "game_started", started
    g = started["game"]
    other = "black" if color == "white" else "white"
    assert g[other]["computer"] == level and g[other]["id"] == "computer-%d" % level, g
    return a, g["id"]


async def test_computer_games_run_to_the_end(srv):
    games = [await computer_game(srv, "P%d" % i, 1 + i % 3, "white" if i % 2 else "black")
             for i in range(4)]
    results = await asyncio.gather(*[play_out(a, gid, "white" if i % 2 else "black")
                                      for i, (a, gid) in enumerate(games)])
    for (a, gid), end in zip(games, results):
        assert end["result"] in ("1-0", "0-1", "1/2-1/2"), end
        code, _, body = srv.http("/api/games/%s" % gid)
        assert code == 200, code
    assert metric(srv, "chess_engine_jobs_total") > 0


async def test_thinking_indicator_and_spectator_lines(srv):
    a, gid = await computer_game(srv, "Ann", 8, "white", {"minutes": 1, "increment": 0})
    spectator = await srv.player("Sam")
    await spectator.ok({"type": "watch", "game": gid})
    await a.move(gid, "e4")
    thinking = await a.recv_type("computer_thinking", timeout=5, game=gid)
    assert thinking["thinking"] and thinking["ply"] == 1, thinking
    line = await spectator.recv_type("computer_analysis", timeout=10, game=gid)
    assert line["pv"] and line["depth"] >= 1 and ("cp" in line["score"] or "mate" in line["score"])
    reply = await a.recv_type("move", timeout=15, game=gid, ply=2)
    assert reply["turn"] == "white", reply
    # The player is not shown the engine's evaluation during the game.
    await a.expect_none("computer_analysis", wait=0.2)


async def test_resign_and_abort_cancel_the_search(srv):
    a, gid = await computer_game(srv, "Ann", 8, "white", {"minutes": 30, "increment": 0})
    await a.move(gid, "e4")
    await a.recv_type("computer_thinking", game=gid)
    before = metric(srv, "chess_engine_cancellations_total")
    await a.ok({"type": "resign", "game": gid})
    await a.expect_none("move", wait=1.0)
    # A running search is counted once its worker has seen the stop (a lower-priority thread).
    await wait_for(lambda: metric(srv, "chess_engine_cancellations_total") >= before + 1,
                   what="the cancelled search counted in chess_engine_cancellations_total")
    # The computer as White moves first; the human may abort before answering.
    b, gid2 = await computer_game(srv, "Bea", 2, "black", {"minutes": 5, "increment": 0})
    await b.recv_type("move", timeout=10, game=gid2, ply=1)
    end = await b.ok({"type": "abort", "game": gid2})
    assert end["type"] == "game_end" and end["reason"] == "aborted", end


async def test_takeback_drops_the_stale_search(srv):
    a, gid = await computer_game(srv, "Ann", 8, "white", {"minutes": 30, "increment": 0})
    await a.move(gid, "e4")
    await a.recv_type("move", timeout=60, game=gid, ply=2)  # the computer's reply
    await a.move(gid, "d4")
    await a.recv_type("computer_thinking", game=gid, ply=3)
    # While it thinks about 2.d4, the player takes 2.d4 back: the computer grants it at once.
    offer = await a.ok({"type": "takeback_propose", "game": gid})
    assert offer["type"] == "offer" and offer["kind"] == "takeback", offer
    taken = await a.recv_type("takeback", timeout=5, game=gid)
    assert taken["undone"] == 1 and taken["ply"] == 2, taken
    state = (await a.ok({"type": "watch", "game": gid}))["game"]
    assert state["ply"] == 2 and state["turn"] == "white", state
    # The search for the position after 2.d4 is cancelled; no move for it ever arrives.
    await a.expect_none("move", wait=1.5)
    state = (await a.ok({"type": "watch", "game": gid}))["game"]
    assert state["ply"] == 2, state
    assert taken


async def test_draw_offers_are_declined_and_rematch_granted(srv):
    a, gid = await computer_game(srv, "Ann", 1, "white")
    await a.move(gid, "e4")
    await a.recv_type("move", timeout=10, game=gid, ply=2)
    await a.ok({"type": "draw_offer", "game": gid})
    declined = await a.recv_type("offer_declined", timeout=5, game=gid)
    assert declined["kind"] == "draw" and declined["by"] == "black", declined
    await a.ok({"type": "resign", "game": gid})
    await a.ok({"type": "rematch_offer", "game": gid})
    started = await a.recv_type("game_started", timeout=5)
    assert started["game"]["white"]["computer"] == 1, started  # colours swap


async def test_analysis_stream_and_limits(srv):
    a = await srv.player("Ann")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    started = await a.ok({"type": "analyse", "fen": start, "moves": ["e4", "e7e5"],
                          "multipv": 2})
    aid = started["analysis"]
    assert started["type"] == "analysis_started" and started["movetime"] == 2000, started
    assert started["fen"].startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"), started
    await a.error({"type": "analyse", "fen": start}, "ANALYSIS_LIMIT")
    depths = []
    while True:
        m = await a.recv(lambda m: m.get("analysis") == aid, timeout=10, what="analysis")
        if m["type"] == "analysis_done":
            break
        assert m["type"] == "analysis" and m["pv"] and m["multipv"] in (1, 2), m
        depths.append(m["depth"])
    assert m["reason"] == "limit" and m["best"]["san"], m  # the 2 s cap ended it
    assert max(depths) >= 5 and depths == sorted(depths), depths
    # Stopping: the stream ends at once with reason "stopped".
    aid = (await a.ok({"type": "analyse", "fen": start}))["analysis"]
    await a.ok({"type": "analysis_stop", "analysis": aid})
    done = await a.recv_type("analysis_done", timeout=5, analysis=aid)
    assert done["reason"] == "stopped", done
    await a.error({"type": "analysis_stop", "analysis": aid}, "ANALYSIS_NOT_FOUND")


async def test_analysis_errors(srv):
    a = await srv.player("Ann")
    r = await a.error({"type": "analyse", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "FEN_INVALID")
    await a.error({"type": "analyse", "fen": "not a fen"}, "FEN_INVALID")
    await a.error({"type": "analyse", "moves": ["e4", "e4"]}, "ILLEGAL_MOVE")
    await a.error({"type": "analyse", "game": "nosuchgame"}, "GAME_NOT_FOUND")
    for field, value in (("depth", 0), ("depth", 99), ("multipv", 9), ("movetime", 1),
                         ("moves", "e4"), ("moves", ["x" * 40]), ("fen", 7)):
        r = await a.error({"type": "analyse", field: value}, "BAD_FIELD")
        assert r["field"] == field, r
    await a.error({"type": "analysis_stop", "analysis": -1}, "BAD_FIELD")
    await a.error({"type": "analysis_stop", "analysis": 2**53}, "BAD_FIELD")
    # Any id a JSON reader keeps exactly is a possible one (ids come from a 64-bit counter).
    await a.error({"type": "analysis_stop", "analysis": 2**53 - 1}, "ANALYSIS_NOT_FOUND")
    await a.error({"type": "analysis_stop", "analysis": 2**31}, "ANALYSIS_NOT_FOUND")
    # A game's position at a ply, then moves.
    b = await srv.player("Bob")
    gid = await start_game(a, b)
    await play(gid, a, b, ["e4", "c5"])
    started = await b.ok({"type": "analyse", "game": gid, "ply": 1, "moves": ["e5"],
                          "depth": 3})
    assert " w " in started["fen"] and "4p3/4P3" in started["fen"], started
    await b.recv_type("analysis_done", timeout=10, analysis=started["analysis"])


@server_args("--engine-memory-mb", "1", "--engine-table-mb", "1")
async def test_tiny_memory_budget_evicts_idle_tables(srv):
    a = await srv.player("Ann")
    b = await srv.player("Bob")
    games = [await start_game(a, b) for _ in range(4)]
    for gid in games:  # each game's analysis uses that game's table
        started = await a.ok({"type": "analyse", "game": gid, "depth": 4})
        await a.recv_type("analysis_done", timeout=10, analysis=started["analysis"])
    assert metric(srv, "chess_engine_table_bytes") <= 1 << 20
    assert metric(srv, "chess_engine_table_evictions_total") >= 2


@server_args("--engine-workers", "0")
async def test_engine_off(srv):
    a = await srv.player("Ann")
    await a.error({"type": "computer_play", "level": 3, "time": "unlimited"},
                  "COMPUTER_UNAVAILABLE")
    await a.error({"type": "analyse"}, "ANALYSIS_UNAVAILABLE")
    assert metric(srv, "chess_engine_workers") == 0


if __name__ == "__main__":
    run_tests(globals())
