"""
Accounts and ratings against the real server and its SQLite file (docs/protocol.md, "Ratings"
and "Accounts"): a rating's deviation grows with the time its player has not played (the profile,
the provisional mark, the leaderboard and the next rated game all use the grown one).
"""
import time

from harness import start_game
from persist_harness import run_data_dir_tests

PASSWORD = "correct horse battery"
DAY_MS = 86400000


async def register(client, username, password=PASSWORD):
    return await client.ok({"type": "register", "username": username, "password": password})


def set_rating(data, player_id, category, rating, deviation, updated_at, games=40):
    data.execute("INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, "
                 "updated_at) VALUES (?, ?, ?, ?, 0.06, ?, ?) ON CONFLICT (player_id, category) "
                 "DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
                 "games = excluded.games, updated_at = excluded.updated_at",
                 (player_id, category, rating, deviation, games, updated_at))


async def test_deviation_grows_while_away(data):
    """Two settled blitz ratings (deviation 60) written into the database: one last played 400
    days ago, one 10 days ago. After a restart (the ratings are read from the store), the long-
    absent player is provisional with a deviation of about 113.6 and off the leaderboard; their
    next rated game starts from that deviation, so their rating moves about three times as much
    as the recent player's."""
    srv = data.start()
    a, b = await srv.player("Ann"), await srv.player("Ben")
    await register(a, "absent")
    await register(b, "recent")
    await srv.close_clients()
    assert srv.stop() == 0
    now = int(time.time() * 1000)
    set_rating(data, a.player["id"], "blitz", 1800, 60, now - 400 * DAY_MS)
    set_rating(data, b.player["id"], "blitz", 1700, 60, now - 10 * DAY_MS)

    srv = data.start()
    a, b = await srv.player(token=a.token), await srv.player(token=b.token)
    absent = (await b.ok({"type": "player_get", "username": "absent"}))["player"]["ratings"]
    recent = (await a.ok({"type": "player_get", "username": "recent"}))["player"]["ratings"]
    # 60 after 400 days: sqrt((60/173.7178)^2 + 0.06^2 * 400 * 0.21436) * 173.7178 = 113.65
    assert absent["blitz"] == {"rating": 1800, "deviation": 114, "games": 40,
                               "provisional": True}, absent
    # after 10 days: 61.91
    assert recent["blitz"] == {"rating": 1700, "deviation": 62, "games": 40,
                               "provisional": False}, recent
    assert absent["bullet"]["provisional"] is True  # never played: 350
    board = await a.ok({"type": "leaderboard", "category": "blitz"})
    assert [(p["name"], p["deviation"]) for p in board["players"]] == [("recent", 62)], board

    gid = await start_game(a, b, {"minutes": 3, "increment": 2})
    await b.ok({"type": "resign", "game": gid})
    end = await a.recv_type("game_end", game=gid)
    change = end["ratings"]
    assert change["white"]["before"] == 1800 and change["black"]["before"] == 1700, change
    gained, lost = change["white"]["diff"], -change["black"]["diff"]
    assert gained > 2.5 * lost > 0, change
    [(dev, updated)] = data.query("SELECT deviation, updated_at FROM ratings WHERE player_id = ? "
                                  "AND category = 'blitz'", (a.player["id"],))
    assert 100 < dev < 110 and updated >= now, (dev, updated)
    await srv.close_clients()
    assert srv.stop() == 0


if __name__ == "__main__":
    run_data_dir_tests(globals())
