"""
Computer analysis of finished games (docs/analysis.md) in the real server: a game with a known
blunder analysed position by position, the blunder marked at its ply with the better move, the
same numbers for the same game analysed again, the result in game_analysis_get, in
GET /api/games/{id} and in the annotated PGN; every refusal with its code (no such game, a game
in progress, not analysed yet, one analysis at a time per player, the site's queue full); and
analyses under way that survive a restart and finish where they stopped.
"""
import json

from harness import play, start_game
from persist_harness import run_data_dir_tests

# Black's third move allows mate in one: a blunder at ply 6.
SCHOLARS_MATE = ('[White "Ann"]\n[Black "Ben"]\n[Result "1-0"]\n\n'
                 '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
# Longer, for analyses that must still be running when the next request comes.
RUY_LOPEZ = ('[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 '
             '6. Re1 b5 7. Bb3 d6 8. c3 O-O 1/2-1/2\n')


async def import_game(client, pgn):
    r = await client.ok({"type": "pgn_import", "pgn": pgn})
    assert r["type"] == "imported", r
    return r["game"]


async def analysis_done(client, game, timeout=120):
    """Waits for the final game_analysis of a followed analysis."""
    msg = await client.recv(lambda m: m.get("type") == "game_analysis" and m.get("game") == game
                            and m["analysis"]["state"] == "done", timeout=timeout,
                            what="the analysis of %s done" % game)
    return msg["analysis"]


async def api_token(client, username):
    """Registers the connection's guest and makes it a personal API token (no scope)."""
    await client.ok({"type": "register", "username": username, "password": "password " + username})
    return (await client.ok({"type": "api_token_create", "description": "analysis"}))["token"]


def strip_progress(analysis):
    """What must be the same every time: the numbers and lines, not the counters."""
    return [{k: p.get(k) for k in ("ply", "cp", "mate", "best", "line", "judgement", "better")}
            for p in analysis["plies"]]


async def test_blunder_marked_and_reproducible(data):
    srv = data.start("--engine-workers", "2", "--game-analysis-nodes", "50000")
    a = await srv.player("Ann")
    first, second = await import_game(a, SCHOLARS_MATE), await import_game(a, SCHOLARS_MATE)
    await a.error({"type": "game_analysis_get", "game": first}, "GAME_NOT_ANALYSED")

    r = await a.ok({"type": "game_analysis_request", "game": first})
    assert r["type"] == "game_analysis" and r["game"] == first, r
    assert r["analysis"]["state"] == "running" and r["analysis"]["positions"] == 8, r
    assert r["analysis"]["nodes"] == 50000, r
    progress = await a.recv_type("game_analysis_progress", timeout=60, game=first)
    assert progress["positions"] == 8 and 1 <= progress["searched"] < 8, progress
    done = await analysis_done(a, first)
    assert done["searched"] == 8 and len(done["plies"]) == 8, done
    plies = {p["ply"]: p for p in done["plies"]}
    # 3... Nf6 allows mate in one: a blunder, with the better move from the position before.
    assert plies[6]["judgement"] == "blunder", plies[6]
    assert plies[6]["mate"] == 1 and plies[6]["line"][0] == "Qxf7#", plies[6]
    assert plies[6]["better"] == plies[5]["line"][0] != "Nf6", (plies[5], plies[6])
    # The final position is checkmate: not searched, Black lost.
    assert "depth" not in plies[7] and "cp" not in plies[7] and plies[7]["win"] > 95, plies[7]
    assert all(plies[i]["depth"] > 0 and plies[i]["best"] for i in range(7)), plies
    assert done["accuracy"]["black"]["blunders"] >= 1, done["accuracy"]
    assert 0 <= done["accuracy"]["black"]["accuracy"] < done["accuracy"]["white"]["accuracy"]
    assert done["accuracy"]["white"]["blunders"] == 0, done["accuracy"]

    # Asked again: the stored analysis at once, for anyone.
    again = await a.ok({"type": "game_analysis_request", "game": first})
    assert again["analysis"] == done, again
    b = await srv.player("Ben")
    got = await b.ok({"type": "game_analysis_get", "game": first})
    assert got["analysis"] == done, got

    # The same game analysed again (another id): the same numbers, lines and judgements.
    await a.ok({"type": "game_analysis_request", "game": second})
    assert strip_progress(await analysis_done(a, second)) == strip_progress(done)

    # Over HTTP: in the game's JSON, and as an annotated PGN.
    status, _, body = srv.http("/api/games/%s" % first)
    assert status == 200 and json.loads(body)["analysis"] == done, body[:300]
    status, _, body = srv.http("/api/games/%s.pgn" % first)
    pgn = " ".join(body.decode().split())  # lines wrap anywhere between words
    assert status == 200 and "3... Nf6 $4 { Blunder. %s was best. [%%eval #1] }" % (
        plies[6]["better"]) in pgn, pgn
    assert "(3... %s" % plies[6]["better"] in pgn and "[%eval " in pgn, pgn
    record = await b.ok({"type": "game_record", "game": first})
    assert record["game"]["analysis"] == done, record

    # A game still in the server's memory: its state as the world has it, with the analysis
    # from the database once there is one (and none before).
    live = await start_game(a, b)
    await play(live, a, b, ["e4", "e5"])
    await a.ok({"type": "resign", "game": live})
    state = json.loads(srv.http("/api/games/%s" % live)[2])
    assert state["status"] == "ended" and "analysis" not in state, state
    assert "[%eval" not in srv.http("/api/games/%s.pgn" % live)[2].decode()
    await b.ok({"type": "game_analysis_request", "game": live})
    kept = await analysis_done(b, live)
    state = json.loads(srv.http("/api/games/%s" % live)[2])
    assert state["v"] and state["analysis"] == kept, state
    memory_pgn = srv.http("/api/games/%s.pgn" % live)[2].decode()
    assert "[%eval" in memory_pgn and "[%clk" in memory_pgn, memory_pgn

    # In the database: the request and one row per position.
    [(positions, nodes, done_at)] = data.query(
        "SELECT positions, nodes, done_at FROM game_analyses WHERE game_id = ?", (first,))
    assert (positions, nodes) == (8, 50000) and done_at, (positions, nodes, done_at)
    assert data.query("SELECT count(*) FROM analysis_plies WHERE game_id = ?", (first,)) == [(8,)]
    await srv.close_clients()
    assert srv.stop() == 0


async def test_refusals(data):
    srv = data.start("--engine-workers", "1", "--game-analysis-nodes", "50000")
    a, b = await srv.player("Ann"), await srv.player("Ben")
    await a.error({"type": "game_analysis_request", "game": "nosuchgame"}, "GAME_NOT_FOUND")
    await a.error({"type": "game_analysis_get", "game": "nosuchgame"}, "GAME_NOT_FOUND")
    await a.error({"type": "game_analysis_request", "game": ""}, "BAD_FIELD")
    await a.error({"type": "game_analysis_request"}, "BAD_FIELD")
    live = await start_game(a, b)
    await a.error({"type": "game_analysis_request", "game": live}, "GAME_NOT_OVER")
    await srv.close_clients()
    assert srv.stop() == 0
    # Without the engine there is no analysis to ask for; reading one still works.
    srv = data.start("--engine-workers", "0")
    a = await srv.player("Ann")
    gid = await import_game(a, SCHOLARS_MATE)
    await a.error({"type": "game_analysis_request", "game": gid}, "ANALYSIS_UNAVAILABLE")
    await a.error({"type": "game_analysis_get", "game": gid}, "GAME_NOT_ANALYSED")
    await srv.close_clients()
    assert srv.stop() == 0


async def test_limits_and_restart(data):
    args = ["--engine-workers", "1", "--game-analysis-nodes", "2000000",
            "--game-analysis-queue", "2"]
    srv = data.start(*args)
    ann, ben, cat = [await srv.player(n) for n in ("Ann", "Ben", "Cat")]
    token = await api_token(cat, "cat")
    games = [await import_game(ann, RUY_LOPEZ) for _ in range(3)]
    r = await ann.ok({"type": "game_analysis_request", "game": games[0]})
    assert r["analysis"]["state"] == "running", r
    # One at a time per player; then the site's queue (2) is full.
    await ann.error({"type": "game_analysis_request", "game": games[1]}, "GAME_ANALYSIS_LIMIT")
    await ben.ok({"type": "game_analysis_request", "game": games[1]})
    await cat.error({"type": "game_analysis_request", "game": games[2]}, "ANALYSIS_QUEUE_FULL")
    status, body = srv.post_json("/api/games/%s/analysis" % games[2], token)
    assert status == 503 and "queue is full" in body["error"], (status, body)
    assert srv.post_json("/api/games/nosuchgame/analysis", token)[0] == 404
    assert srv.post_json("/api/games/%s/analysis" % games[2])[0] == 401
    assert srv.post_json("/api/games/%s/analysis" % games[2], "x" * 32)[0] == 401
    # Someone else asking for a game under way follows it.
    follow = await cat.ok({"type": "game_analysis_get", "game": games[0]})
    assert follow["analysis"]["state"] == "running", follow
    await ann.recv_type("game_analysis_progress", timeout=60, game=games[0])

    # Stopped mid-queue: what was stored stays, and the rest is searched after the restart.
    await srv.close_clients()
    assert srv.stop() == 0
    stored = dict(data.query("SELECT game_id, count(*) FROM analysis_plies GROUP BY game_id"))
    assert 1 <= stored.get(games[0], 0) < 17 and stored.get(games[1], 0) < 17, stored
    assert data.query("SELECT count(*) FROM game_analyses WHERE done_at IS NULL") == [(2,)]
    srv = data.start(*args)
    ann = await srv.player(token=ann.token)
    for gid in games[:2]:
        r = await ann.ok({"type": "game_analysis_get", "game": gid})
        if r["analysis"]["state"] != "done":
            await analysis_done(ann, gid, timeout=200)
    for gid in games[:2]:
        final = (await ann.ok({"type": "game_analysis_get", "game": gid}))["analysis"]
        assert final["state"] == "done" and final["searched"] == 17, final
        assert "white" in final["accuracy"] and "black" in final["accuracy"], final
    assert "stored already" in srv.read_log()
    # The queue is free again; over HTTP: 202 while it runs, 200 for one done.
    status, body = srv.post_json("/api/games/%s/analysis" % games[2], token)
    assert status == 202 and body["game"] == games[2], (status, body)
    assert body["analysis"]["state"] == "running", body
    status, body = srv.post_json("/api/games/%s/analysis" % games[0], token)
    assert status == 200 and body["analysis"]["state"] == "done", (status, body)
    status, _, state = srv.http("/api/games/%s" % games[0])
    assert status == 200 and json.loads(state)["analysis"] == body["analysis"], state[:300]
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
