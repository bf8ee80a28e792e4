"""
Daily (correspondence) games (docs/protocol.md, "Daily games"): N days per move, a deadline in
wall-clock time that a restart (SIGTERM or SIGKILL) restores exactly with the moves, a deadline
that passes (while the server is down, or while it runs) ending the game on time, a game in
which both sides have not moved within a day aborted, refusals of bad days and of guests.

Deadlines are days away, so the tests move them the way they can move: the server is stopped,
the stored deadline (a daily move's clock_ms, migrations/011_daily_games.sql) or creation time
is set in the database, and the server is started again on it.
"""
import asyncio
import signal
import time

from harness import play, start_game
from persist_harness import run_data_dir_tests

DAY_MS = 24 * 3600 * 1000
# The server's wall clock (read once per loop turn, and kept in step with its monotonic clock)
# and the test's readings around a request are not strictly ordered: a deadline is checked
# against them within this much.
CLOCK_SKEW_MS = 1000
PASSWORD = "correct horse battery"


async def accounts(srv, *names):
    """Registered players (daily games are for accounts), connected."""
    out = []
    for name in names:
        c = await srv.player(name)
        await c.ok({"type": "register", "username": name, "password": PASSWORD})
        out.append(c)
    return out


def game_in(welcome, gid):
    [g] = [g for g in welcome["games"] if g["id"] == gid]
    return g


async def reconnect(srv, clients):
    return [await srv.player(token=c.token) for c in clients]


async def ended_after_restart(data, client, gid, sql, params):
    """Changes the stopped server's database, starts it again and returns the game as the
    client's games_list has it then."""
    data.execute(sql, params)
    srv = data.start()
    c = await srv.player(token=client.token)
    games = await c.ok({"type": "games_list", "player": client.player["id"]})
    [g] = [g for g in games["games"] if g["id"] == gid]
    await srv.close_clients()
    assert srv.stop() == 0
    return g


async def daily_across_restart(data, sig):
    srv = data.start()
    a, b = await accounts(srv, "ada", "bob")
    gid = await start_game(a, b, {"days": 3})
    before = int(time.time() * 1000)
    last = await play(gid, a, b, ["e4", "e5", "Nf3"])
    after = int(time.time() * 1000)
    assert last["clock"]["white"] == 3 * DAY_MS and last["clock"]["black"] == 3 * DAY_MS, last
    deadline = last["clock"]["deadline"]
    assert (before + 3 * DAY_MS - CLOCK_SKEW_MS <= deadline
            <= after + 3 * DAY_MS + CLOCK_SKEW_MS), (deadline, before, after)
    state = (await a.ok({"type": "watch", "game": gid}))["game"]
    assert state["time"] == {"days": 3}, state["time"]
    assert state["clock"]["deadline"] == deadline and state["clock_running"] == "black", state
    [(days, category)] = data.query("SELECT days, category FROM games WHERE id = ?", (gid,))
    assert days == 3 and category == "correspondence", (days, category)
    [(stored,)] = data.query("SELECT clock_ms FROM live_moves WHERE game_id = ? AND ply = 3",
                             (gid,))
    assert stored == deadline, (stored, deadline)

    await srv.close_clients()
    if sig == signal.SIGKILL:
        srv.stop(signal.SIGKILL)
    else:
        assert srv.stop() == 0
    time.sleep(1.0)  # the deadline must not move with the time the server was down
    srv2 = data.start()
    a2, b2 = await reconnect(srv2, [a, b])
    g = game_in(b2.welcome, gid)
    assert g["moves"] == ["e2e4", "e7e5", "g1f3"] and g["status"] == "playing", g
    assert g["time"] == {"days": 3}
    assert g["clock"]["deadline"] == deadline, (g["clock"], deadline)
    left = g["clock"]["black"]
    assert (deadline - int(time.time() * 1000) - 2000 <= left
            <= deadline - before + CLOCK_SKEW_MS), left
    [mine] = (await b2.ok({"type": "my_games"}))["games"]
    assert mine["id"] == gid and mine["my_turn"] is True and mine["color"] == "black", mine
    assert mine["last_move"] == "g1f3" and mine["clock"]["deadline"] == deadline, mine
    # The game goes on, and Black's move gives White a fresh three days.
    t0 = int(time.time() * 1000)
    moved = await b2.move(gid, "Nc6")
    assert moved["clock"]["deadline"] >= t0 + 3 * DAY_MS - CLOCK_SKEW_MS, moved
    await a2.recv_type("move", game=gid, ply=4)
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_daily_game_survives_sigterm(data):
    await daily_across_restart(data, signal.SIGTERM)


async def test_daily_game_survives_sigkill(data):
    await daily_across_restart(data, signal.SIGKILL)


async def test_deadline_after_a_takeback_survives_restart(data):
    srv = data.start()
    a, b = await accounts(srv, "olga", "pia")
    gid = await start_game(a, b, {"days": 5})
    await play(gid, a, b, ["e4", "e5", "Nf3"])
    await a.ok({"type": "takeback_propose", "game": gid})
    t0 = int(time.time() * 1000)
    back = await b.ok({"type": "takeback_accept", "game": gid})
    assert back["type"] == "takeback" and back["turn"] == "white", back
    # White's move undone: White's period, fresh since its move, runs from the acceptance.
    deadline = back["clock"]["deadline"]
    assert t0 + 5 * DAY_MS - CLOCK_SKEW_MS <= deadline <= int(time.time() * 1000) + 5 * DAY_MS, back
    await srv.close_clients()
    srv.stop(signal.SIGKILL)
    srv2 = data.start()
    a2 = await srv2.player(token=a.token)
    g = game_in(a2.welcome, gid)
    assert g["moves"] == ["e2e4", "e7e5"] and g["clock"]["deadline"] == deadline, g
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_deadline_passed_while_down_loses_on_time(data):
    srv = data.start()
    a, b = await accounts(srv, "cleo", "dan")
    gid = await start_game(a, b, {"days": 1})
    await play(gid, a, b, ["d4", "d5", "c4"])
    await srv.close_clients()
    assert srv.stop() == 0
    # Black's day ran out while the server was down.
    g = await ended_after_restart(
        data, a, gid, "UPDATE live_moves SET clock_ms = ? WHERE game_id = ? AND ply = 3",
        (int(time.time() * 1000) - 60000, gid))
    assert g["result"] == "1-0" and g["reason"] == "timeout", g


async def test_deadline_falls_while_running(data):
    srv = data.start()
    a, b = await accounts(srv, "eve", "finn")
    gid = await start_game(a, b, {"days": 2})
    await play(gid, a, b, ["e4", "c5"])
    await srv.close_clients()
    assert srv.stop() == 0
    # White's deadline two seconds after the restart: the world's timer ends the game then.
    due = int(time.time() * 1000) + 4000
    data.execute("UPDATE live_moves SET clock_ms = ? WHERE game_id = ? AND ply = 2", (due, gid))
    srv2 = data.start()
    a2, b2 = await reconnect(srv2, [a, b])
    g = game_in(a2.welcome, gid)
    assert g["clock"]["deadline"] == due and g["status"] == "playing", g
    end = await b2.recv_type("game_end", game=gid, timeout=15)
    now = int(time.time() * 1000)
    assert end["reason"] == "timeout" and end["winner"] == "black", end
    assert due - CLOCK_SKEW_MS <= now < due + 3000, (due, now)
    await srv2.close_clients()
    assert srv2.stop() == 0


async def test_unplayed_for_a_day_is_aborted(data):
    srv = data.start()
    a, b = await accounts(srv, "gus", "hal")
    gid = await start_game(a, b, {"days": 14})
    await a.move(gid, "e4")
    await srv.close_clients()
    assert srv.stop() == 0
    g = await ended_after_restart(data, a, gid, "UPDATE games SET created_at = ? WHERE id = ?",
                                  (int(time.time() * 1000) - DAY_MS - 1000, gid))
    assert g["result"] == "*" and g["reason"] == "aborted", g


async def test_my_games_your_turn_first(data):
    srv = data.start()
    a, b, c = await accounts(srv, "kim", "lou", "max")
    waiting = await start_game(a, b, {"days": 1})  # White (kim) to move
    await play(waiting, a, b, ["e4", "e5", "d4"])  # now Black (lou) to move
    mine = await start_game(c, a, {"days": 7})  # Black (kim)...
    await c.move(mine, "c4")  # ... to move
    clocked = await start_game(a, c, {"minutes": 5, "increment": 0})  # kim to move, a clock
    games = (await a.ok({"type": "my_games"}))["games"]
    # Kim's turn first (the 5-minute game has less time left than the 7-day one), then lou's.
    assert [g["id"] for g in games] == [clocked, mine, waiting], games
    assert [g["my_turn"] for g in games] == [True, True, False], games
    assert games[1]["last_move"] == "c2c4" and games[1]["color"] == "black", games
    assert games[2]["time"] == {"days": 1} and games[2]["last_move"] == "d2d4", games
    assert (await b.ok({"type": "my_games"}))["games"][0]["my_turn"] is True
    await srv.close_clients()
    assert srv.stop() == 0


async def test_computer_answers_at_its_level_in_a_daily_game(data):
    srv = data.start()
    [a] = await accounts(srv, "nia")
    started = await a.ok({"type": "computer_play", "level": 2, "color": "white",
                          "time": {"days": 1}})
    gid = started["game"]["id"]
    assert started["game"]["time"] == {"days": 1}, started
    t0 = time.time()
    await a.move(gid, "e4")
    reply = await a.recv_type("move", game=gid, ply=2, timeout=15)
    assert time.time() - t0 < 10, "the computer thought for days"
    assert reply["clock"]["deadline"] >= int(t0 * 1000) + DAY_MS, reply
    await srv.close_clients()
    assert srv.stop() == 0


async def test_refusals(data):
    srv = data.start()
    a, b = await accounts(srv, "ivy", "jon")
    for bad in [{"days": 4}, {"days": 0}, {"days": 15}, {"days": "2"}, {"days": 2.5},
                {"days": 2, "minutes": 5}]:
        r = await a.error({"type": "seek_create", "time": bad}, "BAD_FIELD")
        assert r.get("field") == "time", r
        await a.error({"type": "challenge_create", "time": bad}, "BAD_FIELD")
    guest = await srv.player("Guest")
    await guest.error({"type": "seek_create", "time": {"days": 2}}, "DAILY_NEEDS_ACCOUNT")
    await guest.error({"type": "computer_play", "level": 1, "time": {"days": 2}},
                      "DAILY_NEEDS_ACCOUNT")
    # A guest may not accept an account's daily challenge either.
    created = await a.ok({"type": "challenge_create", "time": {"days": 2}})
    await guest.error({"type": "challenge_accept", "challenge": created["challenge"]["id"]},
                      "DAILY_NEEDS_ACCOUNT")
    # No time to give and no victory to claim in a daily game.
    gid = await start_game(a, b, {"days": 5})
    await play(gid, a, b, ["e4", "e5"])
    await a.error({"type": "give_time", "game": gid}, "CANNOT_GIVE_TIME")
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
