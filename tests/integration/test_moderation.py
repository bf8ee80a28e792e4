"""
Moderation (docs/moderation.md): the first account as admin (or the accounts --admin names),
reports and their review, mute, ban and close with their effects (games ended, connections
closed, tokens and logins refused), blocks (no challenges, no pairing, no chat shown), the
moderation log with who did what, every error code of these messages, the writer's own check of
the admin role, and the state surviving a restart.
"""
import asyncio
import json

import websockets

from harness import TIMEOUT, play, start_game
from persist_harness import run_data_dir_tests

PASSWORD = "correct horse battery"


async def account(srv, username):
    """A connected guest that registers as username; returns (client, registered reply)."""
    c = await srv.player()
    r = await c.ok({"type": "register", "username": username, "password": PASSWORD})
    return c, r


async def admin_and_site(data, *args):
    """A server and its first account, which becomes the admin."""
    srv = data.start(*args)
    boss, _ = await account(srv, "Boss")
    await boss.recv_type("mod_done", action="grant", player=boss.player["id"])
    return srv, boss


async def expect_closed(client, code):
    """The server sends `code` as an error, then closes the connection (policy violation)."""
    await client.recv_type("error", code=code)
    try:
        while True:
            await asyncio.wait_for(client.ws.recv(), TIMEOUT)
    except websockets.ConnectionClosed:
        pass
    assert client.ws.close_code == 1008, client.ws.close_code


async def hello_refused(srv, token, code):
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 1, "token": token}, code)


async def test_first_account_is_admin_and_others_are_not(data):
    srv, boss = await admin_and_site(data)
    # A new connection with the admin's token is told it moderates.
    again = await srv.player(token=boss.token)
    assert again.welcome.get("admin") is True, again.welcome
    # The second account is not an admin, nor told it is.
    ann, _ = await account(srv, "Ann")
    await ann.expect_none("mod_done")
    assert "admin" not in (await srv.player(token=ann.token)).welcome
    guest = await srv.player()
    for who in (ann, guest):
        await who.error({"type": "mod_action", "player": boss.player["id"], "action": "mute",
                         "text": "no"}, "NOT_ADMIN")
        await who.error({"type": "mod_reports"}, "NOT_ADMIN")
        await who.error({"type": "mod_log"}, "NOT_ADMIN")
        await who.error({"type": "report_resolve", "report": 1, "text": "x"}, "NOT_ADMIN")
    assert data.query("SELECT username FROM players WHERE is_admin = 1") == [("boss",)]
    # Bad requests: unknown action, no note, oneself, nobody.
    await boss.error({"type": "mod_action", "player": ann.player["id"], "action": "smite",
                      "text": "x"}, "BAD_FIELD")
    await boss.error({"type": "mod_action", "player": ann.player["id"], "action": "mute"},
                     "BAD_FIELD")
    await boss.error({"type": "mod_action", "player": boss.player["id"], "action": "ban",
                      "text": "x"}, "SELF_TARGET")
    await boss.error({"type": "mod_action", "player": "nosuchplayer", "action": "ban",
                      "text": "x"}, "PLAYER_NOT_FOUND")
    # Closing applies to accounts only.
    await boss.error({"type": "mod_action", "player": guest.player["id"], "action": "close",
                      "text": "x"}, "PLAYER_NOT_FOUND")


async def test_admin_flag_names_the_admins(data):
    status, out = data.run_binary("--admin", "Boss,no way")
    assert status == 2 and "admin" in out, (status, out)
    srv = data.start("--admin", "boss,Chief")
    first, _ = await account(srv, "First")
    boss, _ = await account(srv, "Boss")
    await boss.recv_type("mod_done", action="grant", player=boss.player["id"])
    await first.expect_none("mod_done")
    await first.error({"type": "mod_log"}, "NOT_ADMIN")
    await boss.ok({"type": "mod_log"})
    # Chief does not exist yet: named accounts become admins when they register, and the
    # server's grants are logged without a moderator.
    chief, _ = await account(srv, "Chief")
    await chief.recv_type("mod_done", action="grant")
    log = (await chief.ok({"type": "mod_log"}))["entries"]
    assert [(e["action"], e["player"]["name"], e["moderator"]) for e in log] == [
        ("grant", "Chief", None), ("grant", "Boss", None)], log
    srv.stop()
    # At start, --admin grants the accounts that exist.
    srv = data.start("--admin", "First")
    again = await srv.player(token=first.token)
    assert again.welcome.get("admin") is True, again.welcome


async def test_reports_and_their_review(data):
    srv, boss = await admin_and_site(data)
    ann, _ = await account(srv, "Ann")
    troll = await srv.player("Troll")
    gid = await start_game(ann, troll)
    r = await ann.ok({"type": "report", "player": troll.player["id"], "kind": "abuse",
                      "text": "rude in chat", "game": gid})
    assert r == {"type": "report_received", "player": troll.player["id"], "id": r["id"]}, r
    # Reporting again replaces the open report's text; a second reporter adds one.
    await ann.ok({"type": "report", "player": troll.player["id"], "kind": "abuse",
                  "text": "very rude in chat"})
    guest = await srv.player()
    await guest.ok({"type": "report", "player": troll.player["id"], "kind": "spam"})
    await ann.error({"type": "report", "player": ann.player["id"], "kind": "other"},
                    "SELF_TARGET")
    await ann.error({"type": "report", "player": "nosuchplayer", "kind": "other"},
                    "PLAYER_NOT_FOUND")
    await ann.error({"type": "report", "player": troll.player["id"], "kind": "rude"},
                    "BAD_FIELD")
    await ann.error({"type": "report", "player": troll.player["id"]}, "BAD_FIELD")
    reports = (await boss.ok({"type": "mod_reports"}))["reports"]
    assert [(x["reporter"]["id"], x["player"]["name"], x["kind"], x["text"]) for x in reports] == [
        (guest.player["id"], "Troll", "spam", ""),
        (ann.player["id"], "Troll", "abuse", "very rude in chat")], reports
    assert "game" not in reports[1] and "closed_at" not in reports[1], reports[1]
    # Resolving closes it once, with the moderator and the note.
    rid = reports[1]["id"]
    done = await boss.ok({"type": "report_resolve", "report": rid, "text": "warned"})
    assert done["type"] == "mod_done" and done["action"] == "resolve" and done["report"] == rid
    await boss.error({"type": "report_resolve", "report": rid, "text": "again"},
                     "REPORT_NOT_FOUND")
    await boss.error({"type": "report_resolve", "report": 999999, "text": "x"},
                     "REPORT_NOT_FOUND")
    reports = (await boss.ok({"type": "mod_reports"}))["reports"]
    closed = [x for x in reports if x["id"] == rid][0]
    assert closed["closed_by"]["name"] == "Boss" and closed["note"] == "warned", closed
    assert closed["closed_at"] > 0
    # A new report by the same reporter opens a new one.
    await ann.ok({"type": "report", "player": troll.player["id"], "kind": "cheat"})
    reports = (await boss.ok({"type": "mod_reports"}))["reports"]
    assert sum(1 for x in reports if "closed_at" not in x) == 2, reports


async def test_mute(data):
    srv, boss = await admin_and_site(data)
    ann, troll = await srv.player("Ann"), await srv.player("Troll")
    gid = await start_game(ann, troll)
    await troll.ok({"type": "chat", "game": gid, "text": "hi"})
    await boss.ok({"type": "mod_action", "player": troll.player["id"], "action": "mute",
                   "text": "spam"})
    await troll.error({"type": "chat", "game": gid, "text": "spam spam"}, "CHAT_MUTED")
    # Muted, not banned: the game goes on.
    await play(gid, ann, troll, ["e4", "e5"])
    await boss.ok({"type": "mod_action", "player": troll.player["id"], "action": "unmute",
                   "text": "served"})
    await troll.ok({"type": "chat", "game": gid, "text": "sorry"})
    await ann.recv_type("chat", game=gid)
    log = (await boss.ok({"type": "mod_log", "player": troll.player["id"]}))["entries"]
    assert [(e["action"], e["moderator"]["name"], e["note"]) for e in log] == [
        ("unmute", "Boss", "served"), ("mute", "Boss", "spam")], log


async def test_ban_ends_games_and_closes_connections(data):
    srv, boss = await admin_and_site(data)
    ann, cheat = await srv.player("Ann"), await srv.player("Cheat")
    started = await start_game(ann, cheat)
    await play(started, ann, cheat, ["e4", "e5", "Nf3", "Nc6"])
    fresh = await start_game(ann, cheat)  # no move yet: aborted
    seek = await cheat.ok({"type": "seek_create", "time": {"minutes": 3, "increment": 2}})
    second = await srv.player(token=cheat.token)  # a second tab
    await ann.ok({"type": "lobby_subscribe"})
    await boss.ok({"type": "mod_action", "player": cheat.player["id"], "action": "ban",
                   "text": "engine use"})
    await expect_closed(cheat, "BANNED")
    await expect_closed(second, "BANNED")
    ends = {}
    for _ in range(2):
        m = await ann.recv_type("game_end")
        ends[m["game"]] = m
    assert ends[started]["result"] == "1-0" and ends[started]["reason"] == "resignation", ends
    assert ends[fresh]["reason"] == "aborted", ends
    await ann.recv_type("seek_removed", seek=seek["seek"]["id"])
    await hello_refused(srv, cheat.token, "BANNED")
    assert data.query("SELECT status FROM games WHERE id IN (?, ?)", (started, fresh)) == [
        ("ended",), ("ended",)]
    # Unbanned, the same token works again.
    await boss.ok({"type": "mod_action", "player": cheat.player["id"], "action": "unban",
                   "text": "appeal granted"})
    back = await srv.player(token=cheat.token)
    assert back.player["id"] == cheat.player["id"]


async def test_close_account(data):
    srv, boss = await admin_and_site(data)
    vandal, _ = await account(srv, "Vandal")
    await boss.ok({"type": "mod_action", "player": vandal.player["id"], "action": "close",
                   "text": "tos"})
    await expect_closed(vandal, "ACCOUNT_CLOSED")
    await hello_refused(srv, vandal.token, "ACCOUNT_CLOSED")
    c = await srv.connect()
    await c.error({"type": "login", "username": "vandal", "password": PASSWORD},
                  "ACCOUNT_CLOSED")
    # A wrong password tells nothing about the account.
    await c.error({"type": "login", "username": "vandal", "password": "wrong password"},
                  "LOGIN_FAILED")
    await boss.ok({"type": "mod_action", "player": vandal.player["id"], "action": "reopen",
                   "text": "second chance"})
    r = await c.ok({"type": "login", "username": "vandal", "password": PASSWORD})
    assert r["type"] == "session", r


async def test_blocks(data):
    srv = data.start()
    cat, dog = await srv.player("Cat"), await srv.player("Dog")
    gid = await start_game(cat, dog)
    r = await cat.ok({"type": "block", "player": dog.player["id"]})
    assert r["type"] == "block_set" and r["blocked"] is True, r
    await cat.ok({"type": "block", "player": dog.player["id"]})  # twice is fine
    listed = await cat.ok({"type": "blocks_list"})
    assert listed["players"] == [{"id": dog.player["id"], "name": "Dog"}], listed
    # No challenge from the blocked player, no pairing either way.
    await dog.error({"type": "challenge_create", "time": {"minutes": 5, "increment": 0},
                     "player": cat.player["id"]}, "BLOCKED")
    seek = await dog.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0}})
    await cat.error({"type": "seek_accept", "seek": seek["seek"]["id"]}, "BLOCKED")
    own = await cat.ok({"type": "seek_create", "time": {"minutes": 5, "increment": 0}})
    await dog.error({"type": "seek_accept", "seek": own["seek"]["id"]}, "BLOCKED")
    # The blocked player's chat is not shown to the blocker; the blocker's reaches it.
    await dog.ok({"type": "chat", "game": gid, "text": "hidden"})
    await cat.expect_none("chat")
    await cat.ok({"type": "chat", "game": gid, "text": "shown"})
    await dog.recv_type("chat", game=gid)
    # Errors.
    await cat.error({"type": "block", "player": cat.player["id"]}, "SELF_TARGET")
    await cat.error({"type": "block", "player": "nosuchplayer"}, "PLAYER_NOT_FOUND")
    await cat.error({"type": "block"}, "BAD_FIELD")
    # Unblocked: challenges and chat again.
    r = await cat.ok({"type": "unblock", "player": dog.player["id"]})
    assert r["blocked"] is False, r
    assert (await cat.ok({"type": "blocks_list"}))["players"] == []
    await dog.ok({"type": "chat", "game": gid, "text": "visible"})
    await cat.recv_type("chat", game=gid)
    await dog.ok({"type": "challenge_create", "time": {"minutes": 5, "increment": 0},
                  "player": cat.player["id"]})


async def test_state_survives_restart_and_writer_checks_admin(data):
    srv, boss = await admin_and_site(data)
    cat, dog = await srv.player("Cat"), await srv.player("Dog")
    mute, ban = await srv.player("Muted"), await srv.player("Banned")
    await cat.ok({"type": "block", "player": dog.player["id"]})
    await boss.ok({"type": "mod_action", "player": mute.player["id"], "action": "mute",
                   "text": "x"})
    await boss.ok({"type": "mod_action", "player": ban.player["id"], "action": "ban",
                   "text": "x"})
    assert srv.stop() == 0
    srv = data.start()
    await hello_refused(srv, ban.token, "BANNED")
    cat2, dog2 = await srv.player(token=cat.token), await srv.player(token=dog.token)
    await dog2.error({"type": "challenge_create", "time": {"minutes": 5, "increment": 0},
                      "player": cat2.player["id"]}, "BLOCKED")
    mute2, other = await srv.player(token=mute.token), await srv.player()
    gid = await start_game(mute2, other)
    await mute2.error({"type": "chat", "game": gid, "text": "hello"}, "CHAT_MUTED")
    boss2 = await srv.player(token=boss.token)
    assert boss2.welcome.get("admin") is True
    # The role is checked again where the action is written: taken away in the database, it
    # stops working at once even though this connection was told it moderates.
    data.execute("UPDATE players SET is_admin = 0 WHERE id = ?", (boss.player["id"],))
    await boss2.error({"type": "mod_action", "player": dog.player["id"], "action": "ban",
                       "text": "x"}, "NOT_ADMIN")
    assert data.query("SELECT count(*) FROM mod_log WHERE action = 'ban'") == [(1,)]


if __name__ == "__main__":
    run_data_dir_tests(globals())
