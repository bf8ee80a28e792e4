/*
 * Protocol v1: the table of every client message (its type, who may send it, its fields and
 * what it becomes), decoding a text frame into a struct proto_request, the stable error codes,
 * and encoding the server's messages (proto/encode.h). docs/protocol.md describes the same
 * messages for people; keep both in step.
 *
 * Decoding never trusts the client: every field is checked for presence, type and range, and
 * a failure names the field. Nothing here touches sockets or the loop.
 *
 * Loop thread (the functions are reentrant; the table is constant).
 */
#ifndef SERVER_PROTO_PROTO_H
#define SERVER_PROTO_PROTO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "core/world.h"

#define PROTO_VERSION 1

/* Longest request id echoed back (strings); numbers are echoed as they are. */
#define PROTO_ID_MAX 64

/* The largest integer every JSON reader keeps exactly (2^53 - 1): ids the server hands out. */
#define PROTO_MAX_EXACT_INT 9007199254740991LL

/* Protocol-level errors, numbered after the core's so one int names any error. */
#define PROTO_ERRORS(X)                                                                            \
    X(BAD_JSON, "the message is not valid JSON")                                                   \
    X(BAD_MESSAGE, "a message must be a JSON object with a string \"type\"")                       \
    X(MESSAGE_TOO_LARGE, "the message is larger than the server accepts")                          \
    X(BINARY_NOT_SUPPORTED, "messages are JSON text frames, not binary")                           \
    X(UNKNOWN_TYPE, "unknown message type")                                                        \
    X(BAD_FIELD, "a field is missing, of the wrong type or out of range")                          \
    X(HELLO_REQUIRED, "the first message must be hello")                                           \
    X(ALREADY_IDENTIFIED, "this connection has already said hello")                                \
    X(UNSUPPORTED_PROTOCOL, "this server speaks protocol version 1")                               \
    X(BAD_TOKEN, "unknown or expired session token")                                               \
    X(RATE_LIMITED, "too many messages; slow down")                                                \
    X(TOO_MANY_WATCHED, "this connection watches too many games")                                  \
    X(USERNAME_INVALID, "a username has 3 to 20 letters, digits, _ or -, starts with a letter, "   \
                        "ends with a letter or digit, and does not start with \"guest\"")          \
    X(PASSWORD_INVALID, "a password has 8 to 128 bytes")                                           \
    X(USERNAME_TAKEN, "this username is taken")                                                    \
    X(ALREADY_REGISTERED, "this player already has an account")                                    \
    X(LOGIN_FAILED, "wrong username or password")                                                  \
    X(LOGIN_RATE_LIMITED, "too many login attempts; wait a minute")                                \
    X(PLAYER_NOT_FOUND, "no player with this id or username")                                      \
    X(PGN_INVALID, "the text is not a PGN game this server can read")                              \
    X(STORE_UNAVAILABLE, "the database cannot serve this request now")                             \
    X(ANALYSIS_UNAVAILABLE, "analysis is not available on this server")                            \
    X(ANALYSIS_LIMIT, "this connection already runs as many analyses as it may; stop one first")   \
    X(ANALYSIS_NOT_FOUND, "no analysis with this id runs for this connection")                     \
    X(FEN_INVALID, "the FEN is malformed or not a legal position")                                 \
    X(ACCOUNT_REQUIRED, "only a registered account (not a guest or a bot) may do that")            \
    X(BOT_NOT_FOUND, "you own no bot with this username")                                          \
    X(TOO_MANY_BOTS, "you own as many bots as an account may")                                     \
    X(OWNER_UNREACHABLE,                                                                           \
      "the node that holds this game, seek or challenge cannot be reached now; "                   \
      "try again")                                                                                 \
    X(INTERNAL, "internal server error")

enum proto_error {
    PROTO_ERR_FIRST = CORE_ERR_COUNT,
#define PROTO_ERROR_ENUM(name, message) PROTO_ERR_##name,
    PROTO_ERRORS(PROTO_ERROR_ENUM)
#undef PROTO_ERROR_ENUM
        PROTO_ERR_END
};

/* The stable code ("ILLEGAL_MOVE") of a core or protocol error (positive or negative);
 * "INTERNAL" for anything unknown. */
const char *proto_error_name(int code);

/* A readable message for the code; never NULL. */
const char *proto_error_message(int code);

/* Messages a client may send. Those up to PROTO_MSG_CORE_LAST map one to one onto core commands
 * (same order as enum core_cmd_type); the rest are about the connection itself. */
enum proto_msg {
    PROTO_MSG_SEEK_CREATE,
    PROTO_MSG_SEEK_CANCEL,
    PROTO_MSG_SEEK_ACCEPT,
    PROTO_MSG_CHALLENGE_CREATE,
    PROTO_MSG_CHALLENGE_CANCEL,
    PROTO_MSG_CHALLENGE_ACCEPT,
    PROTO_MSG_COMPUTER_PLAY,
    PROTO_MSG_MOVE,
    PROTO_MSG_RESIGN,
    PROTO_MSG_ABORT,
    PROTO_MSG_DRAW_OFFER,
    PROTO_MSG_DRAW_ACCEPT,
    PROTO_MSG_DRAW_DECLINE,
    PROTO_MSG_DRAW_CLAIM,
    PROTO_MSG_TAKEBACK_PROPOSE,
    PROTO_MSG_TAKEBACK_ACCEPT,
    PROTO_MSG_TAKEBACK_DECLINE,
    PROTO_MSG_REMATCH_OFFER,
    PROTO_MSG_REMATCH_ACCEPT,
    PROTO_MSG_REMATCH_DECLINE,
    PROTO_MSG_ABANDON_CLAIM,
    PROTO_MSG_CHAT,
    PROTO_MSG_CHALLENGE_DECLINE,
    PROTO_MSG_CORE_LAST = PROTO_MSG_CHALLENGE_DECLINE,
    PROTO_MSG_HELLO,
    PROTO_MSG_PING,
    PROTO_MSG_LOBBY_SUBSCRIBE,
    PROTO_MSG_LOBBY_UNSUBSCRIBE,
    PROTO_MSG_CHALLENGE_GET,
    PROTO_MSG_LIVE_GAMES,
    PROTO_MSG_WATCH,
    PROTO_MSG_UNWATCH,
    /* Accounts and the archive (docs/persistence.md; handled in net/accounts.c, archive.c). */
    PROTO_MSG_REGISTER,
    PROTO_MSG_LOGIN,
    PROTO_MSG_LOGOUT,
    PROTO_MSG_PLAYER_GET,
    PROTO_MSG_GAMES_LIST,
    PROTO_MSG_GAME_RECORD,
    PROTO_MSG_LEADERBOARD,
    PROTO_MSG_PGN_IMPORT,
    /* Bot accounts and their tokens (net/bots.c). */
    PROTO_MSG_BOT_CREATE,
    PROTO_MSG_BOT_TOKEN_CREATE,
    PROTO_MSG_BOT_TOKEN_REVOKE,
    PROTO_MSG_BOTS_LIST,
    /* The engine (net/engine.c). */
    PROTO_MSG_ANALYSE,
    PROTO_MSG_ANALYSIS_STOP,
    PROTO_MSG_COUNT
};

struct proto_message_spec;

/* A decoded client message. Strings point into `root`, which the request owns. */
/* A flat message read without jansson (proto.c): its fields point into `text`. */
#define PROTO_FLAT_MAX_TEXT   256
#define PROTO_FLAT_MAX_FIELDS 12

struct proto_flat_field {
    const char *key;
    const char *string; /* NULL for an integer */
    size_t len;
    json_int_t number;
};

struct proto_flat {
    int count;
    struct proto_flat_field fields[PROTO_FLAT_MAX_FIELDS];
    char text[PROTO_FLAT_MAX_TEXT + 1]; /* a copy of the message, strings cut out in place */
};

struct proto_request {
    json_t *root;     /* the parsed message, or NULL when it was read flat */
    json_t *owned_id; /* flat: the id as a json_t (id points to it) */
    bool flat;        /* read by the flat reader: `flat_fields` holds the fields */
    const struct proto_message_spec *spec; /* the message's table row; NULL when unknown */
    const json_t *id;                      /* borrowed from root (or owned_id); NULL when absent */
    enum proto_msg msg;
    struct core_cmd cmd;  /* for messages up to PROTO_MSG_CORE_LAST */
    const char *game;     /* watch, unwatch; also cmd.target */
    const char *token;    /* hello: optional */
    const char *name;     /* hello: optional guest name */
    int protocol;         /* hello */
    int limit;            /* live_games, games_list, leaderboard */
    const char *username; /* register, login, player_get */
    const char *password; /* register, login */
    const char *player;   /* player_get, games_list: a player id */
    int page;             /* games_list: from 1 */
    int category;         /* leaderboard: enum rating_category */
    const char *pgn;      /* pgn_import */
    const char *fen;      /* analyse: the position (or game and ply) */
    const json_t *moves;  /* analyse: moves to play first (array of strings, borrowed) */
    int depth;            /* analyse: 0 = no depth limit */
    int movetime_ms;      /* analyse: 0 = the server's longest */
    int multipv;          /* analyse: lines, 1..5 */
    int64_t analysis;     /* analysis_stop: the id from analysis_started; 0 = all */
    const char *field;    /* on BAD_FIELD: the offending field */
    /* Last: decoding clears everything before it, and this (most of the struct) only as far
     * as the flat reader fills it. */
    struct proto_flat flat_fields;
};

/* One row of the message table. */
struct proto_message_spec {
    const char *type;
    enum proto_msg msg;
    int needs_hello; /* 1: only after hello (everything but hello and ping) */
    unsigned fields; /* PROTO_F_* bits: the fields this message takes */
    unsigned required;
};

/* The words for enum challenge_decline ("generic", "later", ...). */
extern const char *const proto_decline_names[CHALLENGE_DECLINE_COUNT];

/* The table, indexed by enum proto_msg. */
extern const struct proto_message_spec proto_messages[PROTO_MSG_COUNT];

/*
 * Decodes one text frame. Returns 0 with *req filled (call proto_request_clear), or a negative
 * error code; on error req->id is still set when the message had a usable id (echo it) and
 * req->field names the offending field for BAD_FIELD. proto_request_clear() is needed in both
 * cases.
 */
int proto_decode(const char *text, size_t len, struct proto_request *req);

/* proto_decode() always through jansson, never the flat reader: tests check that both agree. */
int proto_decode_general(const char *text, size_t len, struct proto_request *req);

void proto_request_clear(struct proto_request *req);

#endif
