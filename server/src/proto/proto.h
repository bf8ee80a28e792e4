/*
 * Protocol v1: the table of every message (proto/messages.def declares them: a client message's
 * type, who may send it, its fields, the core command it becomes, its handler and whether it
 * writes; a server message's type and keys), decoding a text frame into a struct proto_request,
 * the stable error codes, and encoding the server's messages (proto/encode.h). docs/protocol.md
 * describes the same messages for people; ctest checks it names them all.
 *
 * Decoding never trusts the client: every field is checked for presence, type and range, and
 * a failure names the field. Nothing here touches sockets or the loop.
 *
 * Loop thread (the functions are reentrant; the tables are constant).
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
    X(NOT_ADMIN, "only a moderator may do that")                                                   \
    X(BANNED, "this player is banned from the server")                                             \
    X(ACCOUNT_CLOSED, "this account has been closed")                                              \
    X(SELF_TARGET, "you cannot do that to yourself")                                               \
    X(REPORT_NOT_FOUND, "no open report with this id")                                             \
    X(TOO_MANY_BLOCKS, "you block as many players as you may")                                     \
    X(PASSWORD_MISMATCH, "the password is not this account's")                                     \
    X(SESSION_NOT_FOUND, "none of your sessions has this id")                                      \
    X(ACCOUNT_IN_GAME,                                                                             \
      "the account or one of its bots is playing: finish or abort those games first")              \
    X(BAD_SCOPES, "unknown scope: scopes are preference:read, preference:write, email:read, "      \
                  "challenge:read, challenge:write, tournament:write, board:play and bot:play, "   \
                  "separated by commas or spaces")                                                 \
    X(TOO_MANY_TOKENS, "you have as many API access tokens as an account may; revoke one first")   \
    X(TOKEN_NOT_FOUND, "none of your API access tokens has this id")                               \
    X(BAD_SETTINGS, "settings are a JSON object of known keys with allowed values, at most 1024 "  \
                    "bytes")                                                                       \
    X(GAME_ANALYSIS_LIMIT, "you already have a game analysis under way; wait for it to finish")    \
    X(ANALYSIS_QUEUE_FULL, "the server's analysis queue is full; try again later")                 \
    X(GAME_NOT_ANALYSED, "this game has no computer analysis; ask for one first")                  \
    X(GAME_ANALYSIS_ASKED, "this game's analysis was asked for at the same moment; get it now")    \
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

/* ---- the declaration (messages.def) made into C ---- */

/* How a field is checked (messages.def gives each kind its limits). */
enum proto_check {
    PROTO_CHECK_ID,     /* a string of min..max bytes, letters and digits only */
    PROTO_CHECK_TEXT,   /* a string of min..max bytes (no NUL) */
    PROTO_CHECK_NAME,   /* a string of min..max letters, digits, _ or - */
    PROTO_CHECK_INT,    /* an integer from min to max */
    PROTO_CHECK_WORD,   /* one of the kind's words */
    PROTO_CHECK_TIME,   /* a time control: "unlimited", or minutes (min..max ms) and increment */
    PROTO_CHECK_MOVES,  /* an array of at most max strings of 1..16 bytes */
    PROTO_CHECK_BOOL,   /* true or false */
    PROTO_CHECK_OBJECT, /* a JSON object (its keys and values are the handler's to check) */
};

/* The words a word field takes; a field's value is the index of its word. */
struct proto_words {
    const char *const *words;
    int count;
};

#define PROTO_WORDS(...)                                                                           \
    {                                                                                              \
        (const char *const[]){__VA_ARGS__},                                                        \
            (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))               \
    }
#define PROTO_NO_WORDS                                                                             \
    { NULL, 0 }

/* The field kinds, in the order the decoder checks them: PROTO_FIELD_GAME, ... */
enum proto_field {
#define PROTO_FIELD(kind, ...) PROTO_FIELD_##kind,
#include "proto/messages.def"
    PROTO_FIELD_COUNT
};

/* One field kind: its key, check, limits and TypeScript type. */
struct proto_field_spec {
    const char *key;
    enum proto_check check;
    long long min, max;
    struct proto_words words;
    const char *ts;
};

/* Indexed by enum proto_field. */
extern const struct proto_field_spec proto_fields[PROTO_FIELD_COUNT];

/* What a client message does with a field kind. */
enum proto_use { PROTO_UNUSED = 0, PROTO_OPTIONAL, PROTO_REQUIRED };

/* A client message's field list in messages.def, PROTO_REQ(GAME) PROTO_OPT(PLY), is a list of
 * designated initializers of an array indexed by enum proto_field (struct proto_message_spec's
 * use): write it into an initializer directly, never through another macro (it has commas). */
#define PROTO_REQ(kind) [PROTO_FIELD_##kind] = PROTO_REQUIRED,
#define PROTO_OPT(kind) [PROTO_FIELD_##kind] = PROTO_OPTIONAL,

/* Who may send a message. */
enum proto_access { PROTO_ANYTIME, PROTO_AFTER_HELLO };

/* Whether a message's own effect may be written to the store (its reply waits for the commit). */
enum proto_store { PROTO_NO_WRITE, PROTO_WRITES };

/* A message that is no core command. */
#define PROTO_NO_CMD (-1)

/* Messages a client may send: PROTO_MSG_MOVE, ... */
enum proto_msg {
#define PROTO_CLIENT(name, ...) PROTO_MSG_##name,
#include "proto/messages.def"
    PROTO_MSG_COUNT
};

/* The core command a message becomes (enum core_cmd_type), or PROTO_NO_CMD for messages the
 * application handles itself (and for values out of range). */
int proto_core_command(enum proto_msg msg);

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
    struct core_cmd cmd;      /* for core commands (proto_core_command()) */
    const char *game;         /* watch, unwatch; also cmd.target */
    const char *arena;        /* arena_join, _withdraw, _watch, _unwatch; also cmd.target */
    const char *token;        /* hello: optional */
    const char *name;         /* hello: optional guest name */
    int protocol;             /* hello */
    int limit;                /* live_games, games_list, leaderboard */
    const char *username;     /* register, login, player_get */
    const char *password;     /* register, login */
    const char *player;       /* player_get, games_list: a player id */
    int page;                 /* games_list: from 1 */
    int category;             /* leaderboard: enum rating_category */
    const char *pgn;          /* pgn_import */
    const char *fen;          /* analyse: the position (or game and ply) */
    const json_t *moves;      /* analyse: moves to play first (array of strings, borrowed) */
    int depth;                /* analyse: 0 = no depth limit */
    int movetime_ms;          /* analyse: 0 = the server's longest */
    int multipv;              /* analyse: lines, 1..5 */
    int64_t analysis;         /* analysis_stop: the id from analysis_started; 0 = all */
    const char *current;      /* password_change: the password now */
    const char *new_password; /* password_change: "new" */
    const char *session;      /* session_revoke: a session's id */
    const char *description;  /* api_token_create */
    const char *scopes;       /* api_token_create: NULL when absent */
    const char *token_id;     /* api_token_revoke: a token's id */
    const json_t *settings;   /* settings_set: an object (borrowed from root) */
    int action;               /* mod_action: enum store_mod_action (its first words) */
    int kind;                 /* report: enum store_report_kind */
    int64_t report;           /* report_resolve */
    const char *field;        /* on BAD_FIELD: the offending field */
    /* Last: decoding clears everything before it, and this (most of the struct) only as far
     * as the flat reader fills it. */
    struct proto_flat flat_fields;
};

/* One row of the message table: a client message. */
struct proto_message_spec {
    const char *type;
    enum proto_msg msg;
    int needs_hello; /* 1: only after hello (PROTO_AFTER_HELLO) */
    /* enum proto_use of each field kind (the entries past the kinds are always unused: the
     * first lets a message without fields have an initializer; the array is whole 8-byte words,
     * which the decoder reads a word at a time) */
    unsigned char use[(PROTO_FIELD_COUNT + 8) / 8 * 8];
    int core;            /* enum core_cmd_type, or PROTO_NO_CMD */
    const char *handler; /* the name of the application's handler */
    bool writes;         /* PROTO_WRITES */
};

/* The table, indexed by enum proto_msg. */
extern const struct proto_message_spec proto_messages[PROTO_MSG_COUNT];

/* The word of a word field's value ("generic" for PROTO_FIELD_REASON and 0), or "" when out of
 * range. */
const char *proto_word(enum proto_field kind, int value);

/* ---- server messages ---- */

/* A top-level key of a server message. */
struct proto_key {
    const char *key;
    const char *ts; /* its TypeScript type */
    bool required;  /* always present */
};

#define PROTO_KEY(key, ts)     {#key, ts, true},
#define PROTO_KEY_OPT(key, ts) {#key, ts, false},

/* Messages the server sends: PROTO_OUT_MOVE, ... */
enum proto_out {
#define PROTO_SERVER(name, ...) PROTO_OUT_##name,
#include "proto/messages.def"
    PROTO_OUT_COUNT
};

struct proto_server_spec {
    const char *type;
    const struct proto_key *keys; /* besides "type" and "id" */
    int key_count;
};

/* Indexed by enum proto_out. */
extern const struct proto_server_spec proto_server_messages[PROTO_OUT_COUNT];

/* The server message of this type, or NULL. */
const struct proto_server_spec *proto_server_find(const char *type);

/*
 * Checks a server message's top-level keys against its declaration. Returns 0; or -1 when it
 * has no declared string "type", -2 when it has a key its type does not declare (besides "type"
 * and "id"), -3 when a key its type always has is missing, with *key naming that key (borrowed
 * from msg or the table). For tests.
 */
int proto_server_check(const json_t *msg, const char **key);

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
