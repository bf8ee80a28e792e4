"""
Player settings over the real server's WebSocket protocol and its database (docs/protocol.md,
"Player settings"): an account saves its settings with settings_set and gets them back, as
stored, in a settings message after every welcome: on a new connection, after a reconnect and
after a restart, and at once on the account's other pages; a guest's welcome carries none. Unknown keys, bad values, settings too large
and settings that are not an object are refused with BAD_SETTINGS naming the key; guests and
bots get ACCOUNT_REQUIRED; nothing refused is stored; deleting the account deletes its
settings. Run on SQLite and, as server_integration_settings_pg, on PostgreSQL.
"""
import json

from harness import bot_account
from persist_harness import run_data_dir_tests

PASSWORD = "correct horse battery"

FULL = {"board": "blue", "pieces": "merida", "theme": "dark", "board_size": 80,
        "coordinates": False, "animation": "slow", "confirm_move": True, "auto_queen": "always",
        "volume": 35, "zen": True}


async def account(srv, name):
    c = await srv.player(name)
    await c.ok({"type": "register", "username": name, "password": PASSWORD})
    return c


async def login(srv, name):
    """A new connection of the account (login, then hello with the session): its welcome and
    the settings that follow it."""
    c = await srv.connect()
    r = await c.ok({"type": "login", "username": name, "password": PASSWORD})
    again = await srv.player(token=r["token"])
    settings = await again.recv_type("settings")
    assert "id" not in settings, settings
    return again, settings["settings"]


async def save(client, settings):
    r = await client.ok({"type": "settings_set", "settings": settings})
    assert r["type"] == "settings", r
    return r["settings"]


def stored(data, player):
    rows = data.query("SELECT settings FROM player_settings WHERE player_id = ?", (player,))
    return [json.loads(text) for (text,) in rows]


async def stop(srv):
    await srv.close_clients()
    assert srv.stop() == 0


async def test_round_trip(data):
    srv = data.start()
    a = await account(srv, "alice")
    # A new account has none: {} after its next welcome.
    fresh, settings = await login(srv, "alice")
    assert settings == {}, settings
    assert await save(a, FULL) == FULL
    assert stored(data, a.player["id"]) == [FULL]
    # Another connection of the account gets them after its welcome, before any other reply.
    b, settings = await login(srv, "alice")
    assert settings == FULL, settings
    # Replaced whole: keys left out are gone.
    assert await save(b, {"board": "green", "volume": 0}) == {"board": "green", "volume": 0}
    # The account's other pages take the change at once (no id: not their request).
    for other in (a, fresh):
        pushed = await other.recv_type("settings", settings={"board": "green", "volume": 0})
        assert "id" not in pushed, pushed
    await b.expect_none("settings")  # the page that saved has its reply only
    # A reconnect with the same session token: the latest.
    again = await srv.player(token=fresh.token)
    assert (await again.recv_type("settings"))["settings"] == {"board": "green", "volume": 0}
    # A guest's welcome carries none.
    guest = await srv.player("Gus")
    await guest.expect_none("settings")

    # The same after a restart, read from the database.
    session = b.token
    await stop(srv)
    srv = data.start()
    c = await srv.player(token=session)
    assert (await c.recv_type("settings"))["settings"] == {"board": "green", "volume": 0}
    assert await save(c, FULL) == FULL
    await stop(srv)
    srv = data.start()
    d = await srv.player(token=session)
    assert (await d.recv_type("settings"))["settings"] == FULL
    await stop(srv)


async def test_refusals(data):
    srv = data.start()
    a = await account(srv, "alice")
    await save(a, {"board": "purple"})
    bad = [
        ({"board": "blue", "colour": "red"}, "colour"),
        ({"board": "wood"}, "board"),
        ({"pieces": "alpha"}, "pieces"),
        ({"theme": "sepia"}, "theme"),
        ({"board_size": 49}, "board_size"),
        ({"board_size": 101}, "board_size"),
        ({"board_size": 75.5}, "board_size"),
        ({"coordinates": "yes"}, "coordinates"),
        ({"animation": "instant"}, "animation"),
        ({"confirm_move": 1}, "confirm_move"),
        ({"auto_queen": True}, "auto_queen"),
        ({"volume": -1}, "volume"),
        ({"volume": "50"}, "volume"),
        ({"zen": None}, "zen"),
        # Too large as a whole: refused before its keys are looked at.
        ({"board": "blue", "note": "x" * 1100}, "settings"),
        ({"k%d" % i: True for i in range(200)}, "settings"),
    ]
    for settings, field in bad:
        r = await a.error({"type": "settings_set", "settings": settings}, "BAD_SETTINGS")
        assert r["field"] == field, (settings, r)
    # Not an object at all: the field's own check.
    for settings in ("board=blue", ["board", "blue"], 7, None):
        r = await a.error({"type": "settings_set", "settings": settings}, "BAD_FIELD")
        assert r["field"] == "settings", r
    r = await a.error({"type": "settings_set"}, "BAD_FIELD")
    assert r["field"] == "settings", r
    # Larger than a message may be: the connection's limit (such a message is not read: no id).
    await a.send({"type": "settings_set", "settings": {"board": "x" * 20000}})
    await a.recv_type("error", code="MESSAGE_TOO_LARGE")
    # Guests and bots keep settings in their browsers only.
    guest = await srv.player("Gus")
    owner, bot_token, _ = await bot_account(srv, "carol", "CarolBot")
    bot = await srv.player(token=bot_token)
    await bot.expect_none("settings")
    for client in (guest, bot):
        await client.error({"type": "settings_set", "settings": {"board": "blue"}},
                           "ACCOUNT_REQUIRED")
    anonymous = await srv.connect()
    await anonymous.error({"type": "settings_set", "settings": {}}, "HELLO_REQUIRED")
    # Nothing refused was stored; the connection still works.
    assert stored(data, a.player["id"]) == [{"board": "purple"}]
    assert [len(stored(data, p.player["id"])) for p in (guest, bot, owner)] == [0, 0, 0]
    assert await save(a, {}) == {}
    assert stored(data, a.player["id"]) == [{}]
    await stop(srv)


async def test_account_delete_deletes_them(data):
    srv = data.start()
    a = await account(srv, "alice")
    b = await account(srv, "bob")
    await save(a, FULL)
    await save(b, {"zen": True})
    r = await a.ok({"type": "account_delete", "password": PASSWORD})
    assert r["type"] == "account_deleted", r
    assert stored(data, a.player["id"]) == []
    assert stored(data, b.player["id"]) == [{"zen": True}]
    await stop(srv)


if __name__ == "__main__":
    run_data_dir_tests(globals())
