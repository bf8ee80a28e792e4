"""
Every error a client can cause gets its stable code, a message and the request's id; the
connection and the game stay usable afterwards. One test per error code (those a client can
reach; INTERNAL and NO_MEMORY need a broken server).
"""
import random
import re

from harness import *

SERVER_ARGS = []


async def game_between(srv, moves=()):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    gid = await start_game(a, b)
    await play(gid, a, b, list(moves))
    return a, b, gid


async def still_works(c):
    """The connection still answers after an error."""
    pong = await c.ok({"type": "ping"})
    assert pong["type"] == "pong"


async def raw_error(c, text, code):
    await c.send(text)
    m = await c.recv_type("error", code=code)
    assert m["message"] and "id" not in m
    await still_works(c)


async def test_bad_json(srv):
    c = await srv.player("Ann")
    await raw_error(c, "{not json", "BAD_JSON")
    await raw_error(c, '{"type":"ping","type":"ping"}', "BAD_JSON")


async def test_bad_message(srv):
    c = await srv.player("Ann")
    await raw_error(c, "[1,2,3]", "BAD_MESSAGE")
    await c.error({"note": "no type"}, "BAD_MESSAGE")  # the id still comes back


async def test_message_too_large(srv):
    c = await srv.player("Ann")
    big = json.dumps({"type": "chat", "game": "abc", "text": "x" * 20000})
    await raw_error(c, big, "MESSAGE_TOO_LARGE")


async def test_binary_not_supported(srv):
    c = await srv.player("Ann")
    await c.ws.send(b'{"type":"ping"}')
    m = await c.recv_type("error", code="BINARY_NOT_SUPPORTED")
    assert "id" not in m
    # A binary frame that carries an id gets it back.
    await c.ws.send(b'{"type":"ping","id":"bin-1"}')
    await c.recv_type("error", code="BINARY_NOT_SUPPORTED", id="bin-1")
    await still_works(c)


async def test_unknown_type(srv):
    c = await srv.player("Ann")
    r = await c.error({"type": "teleport"}, "UNKNOWN_TYPE")
    assert isinstance(r["id"], int)


async def test_bad_field(srv):
    c = await srv.player("Ann")
    r = await c.error({"type": "seek_create", "time": {"minutes": -1, "increment": 0}}, "BAD_FIELD")
    assert r["field"] == "time"
    r = await c.error({"type": "move", "game": "abc"}, "BAD_FIELD")
    assert r["field"] == "move"
    r = await c.error({"type": "seek_create", "time": "unlimited", "color": "purple"}, "BAD_FIELD")
    assert r["field"] == "color"
    # A string id comes back as it was.
    await c.send({"type": "teleport", "id": "req-7"})
    m = await c.recv_type("error", id="req-7")
    assert m["code"] == "UNKNOWN_TYPE"


async def test_hello_required(srv):
    c = await srv.connect()
    await c.error({"type": "seek_create", "time": "unlimited"}, "HELLO_REQUIRED")
    await still_works(c)  # ping needs no hello
    await c.hello("Ann")


async def test_already_identified(srv):
    c = await srv.player("Ann")
    await c.error({"type": "hello", "protocol": 1}, "ALREADY_IDENTIFIED")


async def test_unsupported_protocol(srv):
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 2}, "UNSUPPORTED_PROTOCOL")
    await c.hello("Ann")


async def test_bad_token(srv):
    c = await srv.connect()
    await c.error({"type": "hello", "protocol": 1, "token": "notatoken"}, "BAD_TOKEN")


@server_args("--rate-limit", "5", "--rate-burst", "5", "--abuse-limit", "10")
async def test_rate_limited_then_closed(srv):
    c = await srv.player("Ann")
    other = await srv.player("Ben")
    for _ in range(30):
        await c.send({"type": "ping"})
    codes = []
    try:
        while True:
            m = await c._read(2)
            if m.get("type") == "error":
                codes.append(m["code"])
    except websockets.ConnectionClosed as e:
        # Closed cleanly with a policy violation after the errors were flushed.
        assert e.code == 1008, e
    assert codes and set(codes) == {"RATE_LIMITED"} and len(codes) >= 10, codes
    await still_works(other)  # others are unaffected


@server_args("--rate-limit", "1", "--rate-burst", "2")
async def test_rate_limited_errors_echo_the_id(srv):
    c = await srv.player("Ann")
    ids = [7, "r-8", 9, "r-10", 11, 12]
    for i in ids:
        await c.send({"type": "ping", "id": i})
    await c.send({"type": "ping"})  # no id: the error has none
    replies = [await c._read(2) for _ in range(len(ids) + 1)]
    # Every request got exactly one answer, in order, each with its own id.
    assert [r.get("id") for r in replies] == ids + [None], replies
    limited = [r for r in replies if r["type"] == "error"]
    assert limited and all(r["code"] == "RATE_LIMITED" for r in limited), replies
    assert "id" not in replies[-1], replies


@server_args("--max-watch", "1")
async def test_too_many_watched(srv):
    a, b, g1 = await game_between(srv)
    c, d, g2 = await game_between(srv)
    w = await srv.player("Watcher")
    await w.ok({"type": "watch", "game": g1})
    await w.error({"type": "watch", "game": g2}, "TOO_MANY_WATCHED")
    await w.ok({"type": "unwatch", "game": g1})
    await w.ok({"type": "watch", "game": g2})


async def test_not_found(srv):
    c = await srv.player("Ann")
    await c.error({"type": "move", "game": "zzzzzzzz", "move": "e4"}, "GAME_NOT_FOUND")
    await c.error({"type": "watch", "game": "zzzzzzzz"}, "GAME_NOT_FOUND")
    await c.error({"type": "seek_accept", "seek": "zzzzzzzz"}, "SEEK_NOT_FOUND")
    await c.error({"type": "seek_cancel", "seek": "zzzzzzzz"}, "SEEK_NOT_FOUND")
    await c.error({"type": "challenge_accept", "challenge": "zzzzzzzzzzzz"}, "CHALLENGE_NOT_FOUND")
    await c.error({"type": "challenge_get", "challenge": "zzzzzzzzzzzz"}, "CHALLENGE_NOT_FOUND")


async def test_not_a_player(srv):
    a, b, gid = await game_between(srv)
    intruder = await srv.player("Eve")
    for msg in ({"type": "move", "game": gid, "move": "e4"}, {"type": "resign", "game": gid},
                {"type": "draw_offer", "game": gid}, {"type": "abort", "game": gid}):
        await intruder.error(msg, "NOT_A_PLAYER")
    # Another connection with White's token may act for White.
    again = await srv.player(token=a.token)
    await again.move(gid, "e4")


async def test_not_your_turn(srv):
    a, b, gid = await game_between(srv)
    await b.error({"type": "move", "game": gid, "move": "e5"}, "NOT_YOUR_TURN")
    await a.move(gid, "e4")
    await a.error({"type": "move", "game": gid, "move": "d4"}, "NOT_YOUR_TURN")


async def test_move_syntax_illegal_ambiguous(srv):
    a, b, gid = await game_between(srv, ["Nc3", "a6", "Ne4", "a5", "Nf3", "a4"])
    await a.error({"type": "move", "game": gid, "move": "hello"}, "MOVE_SYNTAX")
    await a.error({"type": "move", "game": gid, "move": "e2e5"}, "ILLEGAL_MOVE")
    await a.error({"type": "move", "game": gid, "move": "Ng5"}, "AMBIGUOUS_MOVE")
    ev = await a.move(gid, "Nfg5")  # the game is intact
    assert ev["uci"] == "f3g5"


async def test_stale_ply(srv):
    a, b, gid = await game_between(srv, ["e4"])
    await b.error({"type": "move", "game": gid, "move": "e5", "ply": 0}, "STALE_PLY")
    ev = await b.ok({"type": "move", "game": gid, "move": "e5", "ply": 1})
    assert ev["ply"] == 2


async def test_game_over_and_not_over(srv):
    a, b, gid = await game_between(srv, ["e4", "e5"])
    await a.error({"type": "rematch_offer", "game": gid}, "GAME_NOT_OVER")
    await a.ok({"type": "resign", "game": gid})
    await b.error({"type": "move", "game": gid, "move": "Nf6"}, "GAME_OVER")
    await b.error({"type": "resign", "game": gid}, "GAME_OVER")
    await b.error({"type": "draw_offer", "game": gid}, "GAME_OVER")


async def test_offer_errors(srv):
    a, b, gid = await game_between(srv)
    await a.error({"type": "takeback_propose", "game": gid}, "NOTHING_TO_TAKE_BACK")
    await b.error({"type": "draw_accept", "game": gid}, "NO_OFFER")
    await b.error({"type": "takeback_decline", "game": gid}, "NO_OFFER")
    await a.ok({"type": "draw_offer", "game": gid})
    await a.error({"type": "draw_offer", "game": gid}, "OFFER_PENDING")
    await a.error({"type": "draw_accept", "game": gid}, "NO_OFFER")  # not one's own offer


async def test_own_seek_and_challenge(srv):
    a = await srv.player("Ann")
    seek = await a.ok({"type": "seek_create", "time": "unlimited"})
    await a.error({"type": "seek_accept", "seek": seek["seek"]["id"]}, "OWN_SEEK")
    ch = await a.ok({"type": "challenge_create", "time": "unlimited"})
    await a.error({"type": "challenge_accept", "challenge": ch["challenge"]["id"]}, "OWN_CHALLENGE")


async def test_not_owner(srv):
    a, b = await srv.player("Ann"), await srv.player("Ben")
    seek = await a.ok({"type": "seek_create", "time": "unlimited"})
    await b.error({"type": "seek_cancel", "seek": seek["seek"]["id"]}, "NOT_OWNER")
    ch = await a.ok({"type": "challenge_create", "time": "unlimited"})
    await b.error({"type": "challenge_cancel", "challenge": ch["challenge"]["id"]}, "NOT_OWNER")
    await a.ok({"type": "challenge_cancel", "challenge": ch["challenge"]["id"]})


@server_args("--max-seeks", "1")
async def test_too_many_seeks(srv):
    a = await srv.player("Ann")
    await a.ok({"type": "seek_create", "time": "unlimited"})
    await a.error({"type": "seek_create", "time": "unlimited"}, "TOO_MANY_SEEKS")
    await a.error({"type": "challenge_create", "time": "unlimited"}, "TOO_MANY_SEEKS")


@server_args("--max-games", "1")
async def test_too_many_games(srv):
    a, b, gid = await game_between(srv)
    c = await srv.player("Cid")
    ch = await c.ok({"type": "challenge_create", "time": "unlimited"})
    await a.error({"type": "challenge_accept", "challenge": ch["challenge"]["id"]}, "TOO_MANY_GAMES")


@server_args("--engine-workers", "0")
async def test_computer_unavailable(srv):
    a = await srv.player("Ann")
    await a.error({"type": "computer_play", "level": 3, "time": "unlimited"}, "COMPUTER_UNAVAILABLE")
    r = await a.error({"type": "computer_play", "level": 12, "time": "unlimited"}, "BAD_FIELD")
    assert r["field"] == "level"


async def test_chat_errors(srv):
    a, b, gid = await game_between(srv)
    w = await srv.player("Watcher")
    await a.error({"type": "chat", "game": gid, "text": "   "}, "CHAT_INVALID")
    await a.error({"type": "chat", "game": gid, "text": "x" * 141}, "CHAT_INVALID")
    await w.error({"type": "chat", "game": gid, "text": "hi", "room": "players"}, "CHAT_NOT_ALLOWED")
    codes = []
    for i in range(8):
        r = await a.request({"type": "chat", "game": gid, "text": "spam %d" % i})
        codes.append(r["type"] if r["type"] != "error" else r["code"])
    assert codes[:5] == ["chat"] * 5 and "CHAT_RATE_LIMITED" in codes, codes


@server_args("--abandon-seconds", "1")
async def test_abandon_claim_errors(srv):
    a, b, gid = await game_between(srv, ["e4", "e5"])
    await a.error({"type": "abandon_claim", "game": gid, "result": "win"}, "OPPONENT_CONNECTED")
    await b.close()
    await a.recv_type("presence", connected=False)
    await a.error({"type": "abandon_claim", "game": gid, "result": "win"}, "CLAIM_TOO_EARLY")


FUZZ_CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus",
                           "proto")


@server_args("--rate-limit", "100000", "--rate-burst", "100000", "--abuse-limit", "100000")
async def test_mutated_messages(srv):
    # Every message type (the fuzz corpus: docs/protocol.md's examples and nasty cases), mutated,
    # to the real server in a game: every reply is a JSON object, every error a stable code, and
    # the server answers to the end (handlers, not only the decoder, see bad input).
    a, b, gid = await game_between(srv, ["e4"])
    seeds = []
    for name in sorted(os.listdir(FUZZ_CORPUS)):
        with open(os.path.join(FUZZ_CORPUS, name), "rb") as f:
            seeds.append(f.read().decode("utf-8", "replace").replace("L43JIUo2", gid))
    # CHESS_FUZZ_ROUNDS and CHESS_FUZZ_SEED run it longer, or otherwise, by hand.
    rng = random.Random(int(os.environ.get("CHESS_FUZZ_SEED", "20261121")))
    rounds = int(os.environ.get("CHESS_FUZZ_ROUNDS", "8"))
    sent = 0
    types = set()
    for round_ in range(rounds):
        for c in (a, b):
            for seed in seeds:
                await c.send(mutate(rng, seed))
                sent += 1
            # Answered in order: this reply comes after the others (a message waiting for the
            # database may have to be refused with RATE_LIMITED).
            marker = "after-round-%d" % round_  # no mutated message carries this id
            await c.send({"type": "ping", "id": marker})
            r = await c.recv(lambda m: m.get("id") == marker, 30, "the reply to " + marker)
            assert r["type"] == "pong" or r.get("code") == "RATE_LIMITED", r
            for m in c.inbox:
                assert isinstance(m, dict) and isinstance(m.get("type"), str), m
                types.add(m["type"] if m["type"] != "error" else m["code"])
                if m["type"] == "error":
                    assert re.fullmatch("[A-Z_]+", m["code"]) and m["code"] != "INTERNAL", m
            c.inbox.clear()
    assert sent >= rounds * 2 * len(seeds)
    # The handlers were reached, not only the decoder: replies of many kinds, refusals of each.
    assert {"BAD_JSON", "BAD_FIELD", "UNKNOWN_TYPE"} <= types and len(types) >= 20, types
    assert srv.http("/healthz")[0] == 200

if __name__ == "__main__":
    run_tests(globals())
