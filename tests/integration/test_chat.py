"""
Chat per game: the players' room reaches the two players only, the spectators' room the
spectators only; recent lines come with the full state; length and rate limits.
"""
from harness import *

SERVER_ARGS = []


async def test_players_and_spectators_rooms(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    w1, w2 = await srv.player("Wes"), await srv.player("Wil")
    for w in (w1, w2):
        await w.ok({"type": "watch", "game": gid})
    line = await a.ok({"type": "chat", "game": gid, "text": "good luck"})
    assert line["type"] == "chat" and line["room"] == "players" and line["from"]["name"] == "Ann"
    got = await b.recv_type("chat")
    assert got["text"] == "good luck" and got["room"] == "players"
    await w1.expect_none("chat")
    line = await w1.ok({"type": "chat", "game": gid, "text": "nice opening"})
    assert line["room"] == "spectators"
    got = await w2.recv_type("chat")
    assert got["text"] == "nice opening" and got["from"]["name"] == "Wes"
    await a.expect_none("chat")
    await b.expect_none("chat")
    # Recent lines come with the state, per room.
    state = await w2.ok({"type": "watch", "game": gid})
    assert [l["text"] for l in state["game"]["chat"]] == ["nice opening"]
    state = await a.ok({"type": "watch", "game": gid})
    assert [l["text"] for l in state["game"]["chat"]] == ["good luck"]


async def test_chat_text_is_cleaned_and_limited(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    line = await a.ok({"type": "chat", "game": gid, "text": "  tab\there  "})
    assert line["text"] == "tab here"
    line = await a.ok({"type": "chat", "game": gid, "text": "é" * 140})
    assert len(line["text"]) == 140
    await a.error({"type": "chat", "game": gid, "text": "é" * 141}, "CHAT_INVALID")


async def test_chat_after_the_game(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await a.ok({"type": "resign", "game": gid})
    await a.ok({"type": "chat", "game": gid, "text": "gg"})
    await b.recv_type("chat")


if __name__ == "__main__":
    run_tests(globals())
