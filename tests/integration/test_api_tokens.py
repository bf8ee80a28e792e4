"""
Personal API access tokens over the real server's WebSocket protocol and its database
(docs/protocol.md, "API access tokens"): an account creates tokens with a description and scopes,
sees the text once, lists them (never with their text), revokes them by id, and the list is the
same after a restart; guests, bots, unknown scopes, other accounts' ids, made-up ids, bad
descriptions and the per-account limit are refused with their codes, and deleting the account
revokes its tokens. Run on SQLite and, as server_integration_api_tokens_pg, on PostgreSQL.
"""
import asyncio
import hashlib
import json
import re

from harness import bot_account
from persist_harness import run_data_dir_tests

PASSWORD = "correct horse battery"


def token_hash(token):
    return hashlib.blake2b(token.encode(), digest_size=32).digest()


async def account(srv, name):
    c = await srv.player(name)
    await c.ok({"type": "register", "username": name, "password": PASSWORD})
    return c


async def create(client, description, scopes=None):
    msg = {"type": "api_token_create", "description": description}
    if scopes is not None:
        msg["scopes"] = scopes
    r = await client.ok(msg)
    assert r["type"] == "api_token_created", r
    return r


async def listed(client):
    r = await client.ok({"type": "api_tokens_list"})
    assert r["type"] == "api_tokens", r
    return r["tokens"]


async def stop(srv):
    await srv.close_clients()
    assert srv.stop() == 0


async def test_create_list_revoke(data):
    srv = data.start()
    a = await account(srv, "alice")
    assert await listed(a) == []
    first = await create(a, "my board app", "board:play challenge:read")
    token = first["token"]
    assert re.fullmatch("[0-9A-Za-z]{32}", token), first
    info = first["info"]
    # The id is the first 8 bytes of the token's hash; the scopes come back in one order.
    assert info["id"] == token_hash(token)[:8].hex(), (info, token)
    assert info["description"] == "my board app", info
    assert info["scopes"] == "challenge:read,board:play", info
    assert info["last_used_at"] is None and info["created_at"] > 0, info
    second = await create(a, "  stats\tscript\n ")  # no scopes; control characters: spaces
    assert second["info"]["scopes"] == "" and second["info"]["description"] == "stats script"
    third = await create(a, "bot", "bot:play,bot:play,")
    assert third["info"]["scopes"] == "bot:play", third
    tokens = [first["token"], second["token"], third["token"]]
    assert len(set(tokens)) == 3

    # Newest first (tokens made in the same millisecond by their ids), exactly the infos the
    # creations gave, never the token text.
    def newest_first(infos):
        return sorted(infos, key=lambda t: (-t["created_at"], t["id"]))
    now = await listed(a)
    assert now == newest_first([first["info"], second["info"], third["info"]]), now
    text = json.dumps(now)
    assert not any(t in text for t in tokens), text
    # Stored as hashes with what they were given; the text is nowhere in the database.
    rows = data.query("SELECT hash, description, scopes, revoked_at FROM api_tokens "
                      "WHERE player_id = ? ORDER BY created_at", (a.player["id"],))
    assert len(rows) == 3, rows
    stored = {bytes.fromhex(h[2:]) if isinstance(h, str) else bytes(h): (d, s, r)
              for h, d, s, r in rows}
    assert stored[token_hash(first["token"])] == ("my board app", "challenge:read,board:play",
                                                  None), stored
    assert data.query("SELECT count(*) FROM api_tokens WHERE description LIKE ? OR scopes LIKE ?",
                      ("%" + token + "%", "%" + token + "%")) == [(0,)]

    # An API token is not a session: it does not say hello.
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 1, "token": token}, "BAD_TOKEN")

    # Revoked by id (either case), once.
    r = await a.ok({"type": "api_token_revoke", "token_id": info["id"].upper()})
    assert r == {"type": "api_token_revoked", "token_id": info["id"], "id": r["id"]}, r
    await a.error({"type": "api_token_revoke", "token_id": info["id"]}, "TOKEN_NOT_FOUND")
    after = await listed(a)
    assert after == newest_first([second["info"], third["info"]]), after
    [(revoked,)] = data.query("SELECT count(*) FROM api_tokens WHERE revoked_at IS NOT NULL")
    assert revoked == 1, revoked

    # The same after a restart (read from the database), for a new connection of the account.
    session = a.token
    await stop(srv)
    srv = data.start()
    again = await srv.player(token=session)
    assert again.player["id"] == a.player["id"]
    assert await listed(again) == after
    await again.ok({"type": "api_token_revoke", "token_id": second["info"]["id"]})
    assert await listed(again) == [third["info"]]
    await stop(srv)


async def test_refusals(data):
    srv = data.start()
    a = await account(srv, "alice")
    b = await account(srv, "bob")
    mine = await create(b, "bob's", "email:read")
    guest = await srv.player("Gus")
    owner, bot_token, _ = await bot_account(srv, "carol", "CarolBot")
    bot = await srv.player(token=bot_token)
    assert bot.player["bot"] is True
    requests = [{"type": "api_token_create", "description": "x", "scopes": "bot:play"},
                {"type": "api_tokens_list"},
                {"type": "api_token_revoke", "token_id": mine["info"]["id"]}]
    for client in (guest, bot):
        for msg in requests:
            await client.error(msg, "ACCOUNT_REQUIRED")
    anonymous = await srv.connect()
    await anonymous.error(requests[1], "HELLO_REQUIRED")

    # Scopes: only lichess's words, as it spells them, separated by commas or spaces.
    for scopes in ("bot:play,web:mod", "Bot:Play", "bot:play;board:play", "bot", "email:write"):
        await a.error({"type": "api_token_create", "description": "x", "scopes": scopes},
                      "BAD_SCOPES")
    # Descriptions: required, 1 to 100 bytes, not only spaces.
    for msg in ({"type": "api_token_create"},
                {"type": "api_token_create", "description": ""},
                {"type": "api_token_create", "description": "x" * 101},
                {"type": "api_token_create", "description": " \t "},
                {"type": "api_token_create", "description": 7}):
        r = await a.error(msg, "BAD_FIELD")
        assert r["field"] == "description", r
    await create(a, "y" * 100)  # the longest
    r = await a.error({"type": "api_token_create", "description": "x", "scopes": ["bot:play"]},
                      "BAD_FIELD")
    assert r["field"] == "scopes", r

    # Ids: another account's, made up, malformed.
    await a.error({"type": "api_token_revoke", "token_id": mine["info"]["id"]}, "TOKEN_NOT_FOUND")
    await a.error({"type": "api_token_revoke", "token_id": "0000000000000000"}, "TOKEN_NOT_FOUND")
    await a.error({"type": "api_token_revoke", "token_id": "zzzzzzzzzzzzzzzz"}, "TOKEN_NOT_FOUND")
    for bad in (mine["info"]["id"][:15], mine["info"]["id"] + "0", "00000000-0000000"):
        r = await a.error({"type": "api_token_revoke", "token_id": bad}, "BAD_FIELD")
        assert r["field"] == "token_id", r
    assert await listed(b) == [mine["info"]]  # untouched by alice's attempts
    # Nothing of the refused requests was stored.
    [(count,)] = data.query("SELECT count(*) FROM api_tokens")
    assert count == 2, count
    await stop(srv)


async def test_limit(data):
    """At most 50 working tokens per account; a revoked one makes room."""
    srv = data.start()
    a = await account(srv, "alice")
    infos = []
    for i in range(50):
        infos.append((await create(a, "token %d" % i))["info"])
        await asyncio.sleep(0.06)  # under the connection's rate limit
    await a.error({"type": "api_token_create", "description": "one more"}, "TOO_MANY_TOKENS")
    now = await listed(a)
    assert len(now) == 50 and now[0] == infos[-1], now[:2]
    await a.ok({"type": "api_token_revoke", "token_id": infos[0]["id"]})
    await create(a, "one more")
    await a.error({"type": "api_token_create", "description": "and another"}, "TOO_MANY_TOKENS")
    await stop(srv)


async def test_account_delete_revokes_them(data):
    srv = data.start()
    a = await account(srv, "alice")
    b = await account(srv, "bob")
    for i in range(3):
        await create(a, "alice %d" % i, "board:play")
    kept = await create(b, "bob's")
    r = await a.ok({"type": "account_delete", "password": PASSWORD})
    assert r["type"] == "account_deleted", r
    rows = data.query("SELECT revoked_at IS NOT NULL FROM api_tokens WHERE player_id = ?",
                      (a.player["id"],))
    assert sorted(rows) == [(1,), (1,), (1,)], rows
    assert await listed(b) == [kept["info"]]
    await stop(srv)


if __name__ == "__main__":
    run_data_dir_tests(globals())
