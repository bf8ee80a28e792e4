/*
 * The store's types in the application's terms: limits, statuses, the configuration, write
 * operations, figures and results. Shared by the interface (store.h, read.h) and the backends
 * (backend.h), which must not depend on the interface's functions.
 */
#ifndef SERVER_STORE_TYPES_H
#define SERVER_STORE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rating.h"

#define STORE_ID_MAX           16 /* game, player and challenge ids */
#define STORE_NODE_MAX         32 /* a node's id (--node-id) */
#define STORE_NAME_MAX         24 /* shown names (PLAYER_NAME_MAX) */
#define STORE_ARENA_NAME_MAX   30 /* an arena's name (ARENA_NAME_MAX) */
#define STORE_USERNAME_MAX     20
#define STORE_HASH_LEN         32  /* token hashes, as stored (app/auth.h makes them) */
#define STORE_PWHASH_MAX       128 /* an account's encoded password hash (app/password.h makes it) */
#define STORE_FEN_MAX          100
#define STORE_VARIANT_MAX      15 /* a variant's key ("kingOfTheHill") */
#define STORE_TERM_MAX         32
#define STORE_SESSION_ID_BYTES 8   /* a session's public id: the first bytes of its token's hash */
#define STORE_SCOPES_MAX       128 /* an API token's scopes as text, with the NUL (app/auth.h) */
#define STORE_DESCRIPTION_MAX  100 /* bytes of an API token's description */
#define STORE_SETTINGS_MAX     1024 /* bytes of an account's settings as JSON text (app/settings.h) */
#define STORE_PV_MAX           16   /* moves of a stored analysis line */
#define STORE_PV_TEXT_MAX      (STORE_PV_MAX * 6) /* the line as UCI text ("e7e8q " each), NUL */
/* The name a deleted account's games and chat lines show (no username or guest name can be it). */
#define STORE_DELETED_NAME "[deleted]"

enum store_status {
    STORE_OK = 0,
    STORE_ERR_LOCATION,    /* where the data should be cannot be used (missing and cannot be
                              created, or not writable) */
    STORE_ERR_LOCKED,      /* another server uses this store */
    STORE_ERR_CORRUPT,     /* the stored data is damaged, or not a database at all */
    STORE_ERR_TOO_NEW,     /* the schema is newer than this binary knows */
    STORE_ERR_MIGRATION,   /* a migration failed (everything was rolled back) */
    STORE_ERR_IO,          /* any other failure of the database or the system */
    STORE_ERR_NO_MEMORY,   /* an allocation failed */
    STORE_ERR_NOT_FOUND,   /* reads: no such row; restore: the backup file cannot be read */
    STORE_ERR_CONFLICT,    /* writes: a unique name is taken (usernames) */
    STORE_ERR_FAILED,      /* the writer gave up: the store accepts nothing more */
    STORE_ERR_LIMIT,       /* writes: an account already has as many bots as it may */
    STORE_ERR_BUSY,        /* reads: too many waiting for a reader; backups: one is under way */
    STORE_ERR_EXISTS,      /* restore: the location already holds a store */
    STORE_ERR_UNSUPPORTED, /* the backend cannot do this (e.g. back itself up while running) */
    STORE_ERR_DENIED,      /* writes: the acting player may not do this (moderation) */
    STORE_ERR_UNREACHABLE, /* the database server cannot be reached (PostgreSQL) */
    STORE_ERR_FENCED,      /* the node's lease was taken by another node: it may write no more */
    STORE_ERR_COUNT
};

/* "LOCATION", "CORRUPT", ... for logs and tests. */
const char *store_status_name(int status);

/* The backends this binary has (each in its own files, backend.h). */
enum store_backend_id {
    STORE_BACKEND_SQLITE = 0,     /* the default (sqlite.h) */
    STORE_BACKEND_POSTGRESQL = 1, /* a PostgreSQL server (pg.h) */
};

struct store_config {
    enum store_backend_id backend;
    /* Where the data is, in the backend's terms (sqlite.h: a directory; pg.h: a URL). Must
     * outlive the store. */
    const char *location;
    /* The backend's own settings (struct store_sqlite_options), or NULL for its defaults.
     * Read by store_open() only. */
    const void *options;
    /* A node of a site (docs/scaling.md): several nodes share one store, each storing its id
     * with the games it starts and restoring only those, and each holding a lock of its own.
     * NULL or "": a single server, which holds the store alone. Must outlive the store. */
    const char *node_id;
    int max_batch;     /* most operations per transaction (0: 8192) */
    bool per_op;       /* one transaction per operation (for the benchmark's reference) */
    int retry_ms;      /* first pause before retrying a failed transaction, doubling for each of
                          8 attempts (0: 25 ms, about 6 s in all before the writer gives up) */
    int readers;       /* reader threads, each with its own connection (0: 2) */
    int read_delay_ms; /* for tests: each read waits this long on its reader before it runs, so
                          answers arrive late (0: none) */
    /* The writer starts a transaction at most once in this many microseconds: what the loop
     * submits meanwhile joins the next one, so a busy server makes fewer and larger commits (each
     * costs a sync, the WAL's locks and two thread wake-ups). The first commit after a quiet
     * spell is not delayed. 0: a transaction starts as soon as the last one ended. */
    int commit_interval_us;
    int commit_delay_ms; /* for tests: each transaction waits this long before its commit, so
                            commits arrive late (0: none) */
    /* A node of a site whose games another node may take over (docs/scaling.md, "When a node
     * dies"; node_id set): store_open() takes the node's lease before anything is read, and every
     * transaction renews it first, so the loop must commit one at least every second
     * (STORE_OP_LEASE). Once another node took it (STORE_OP_TAKEOVER), every transaction fails
     * with FENCED: nothing more is written and the writer stops (store_fenced()). */
    bool leases;
};

enum store_op_type {
    STORE_OP_PLAYER,       /* a guest's row and its session token (when not stored yet) */
    STORE_OP_GAME_START,   /* a new game and its players' names */
    STORE_OP_MOVE,         /* one move */
    STORE_OP_TAKEBACK,     /* moves after `ply` removed; clocks as they are now */
    STORE_OP_GAME_END,     /* result, reason, and for rated games both players' new ratings */
    STORE_OP_CHAT,         /* one chat line */
    STORE_OP_REGISTER,     /* a guest becomes an account (result: 0 or -CONFLICT) */
    STORE_OP_TOKEN_ADD,    /* a session or bot token for a player */
    STORE_OP_TOKEN_REVOKE, /* a token stops working */
    STORE_OP_IMPORT,       /* a game read from PGN, to view it */
    STORE_OP_BOT_CREATE,   /* a bot account owned by player_id, with its first token (result: 0,
                              -CONFLICT for a taken username, -LIMIT beyond max_bots) */
    STORE_OP_BOT_TOKEN,    /* another token for a bot player_id owns (result: 0, -NOT_FOUND) */
    STORE_OP_BOT_REVOKE,   /* every token of a bot player_id owns stops working (0, -NOT_FOUND) */
    STORE_OP_MODERATE,     /* a moderator's action on a player or a report, logged with it
                              (result: 0, -NOT_FOUND for a missing target or open report,
                              -DENIED when player_id is not an admin) */
    STORE_OP_BLOCK,        /* player_id blocks (or unblocks) another player (0, -NOT_FOUND) */
    STORE_OP_REPORT,       /* player_id reports another player (0, -NOT_FOUND) */
    /* Accounts (app/accounts.c): */
    STORE_OP_PASSWORD_SET,    /* player_id's new password hash, and every session of the account
                                 but u.account.keep revoked (0, -NOT_FOUND: no such account) */
    STORE_OP_SESSION_REVOKE,  /* the session of player_id whose id is u.account.session
                                 (0, -NOT_FOUND: none of its working sessions has that id) */
    STORE_OP_SESSIONS_REVOKE, /* every session of player_id but u.account.keep (0) */
    STORE_OP_TOKEN_SEEN,      /* a session token said hello: u.token.hash, seen at u.token.at */
    STORE_OP_ACCOUNT_DELETE,  /* player_id's account and the bots it owns: games and chat lines
                                 anonymised, tokens revoked, ratings removed, the rows kept as
                                 tombstones that reserve the usernames (0, -CONFLICT while a game
                                 of one of them is live, -NOT_FOUND: no such account) */
    /* Personal API access tokens (app/tokens.c): */
    STORE_OP_API_TOKEN_CREATE, /* a token of player_id's: u.api_token's hash, description,
                                  scopes, at (0, -NOT_FOUND: no such account, -LIMIT: it has
                                  max_tokens working tokens already) */
    STORE_OP_API_TOKEN_REVOKE, /* player_id's working token whose id is u.api_token.id stops
                                  working (0, -NOT_FOUND: none of its working tokens has it) */
    STORE_OP_API_TOKEN_USED,   /* a token was used: u.api_token.hash, last used at u.api_token.at */
    STORE_OP_BOT_UPGRADE,      /* the account player_id becomes a bot, for good (0; -CONFLICT:
                                  it has games, is a bot already, is owned or is no account) */
    /* Player settings (app/settings.c): */
    STORE_OP_SETTINGS_SET, /* the account player_id's settings become u.settings.json (0,
                              -NOT_FOUND: no such account) */
    /* Computer analysis of finished games (app/review.c): */
    STORE_OP_ANALYSIS_REQUEST, /* player_id asks for the analysis of game_id, an ended or
                                  imported game, with u.analysis (0; -NOT_FOUND: no such game,
                                  or it is live; -CONFLICT: the game has an analysis, done or
                                  under way; -LIMIT: player_id has one under way; -BUSY:
                                  u.analysis.max_queue analyses are under way on the site). The
                                  analysis belongs to the store's node (store_config.node_id). */
    STORE_OP_ANALYSIS_PLY,     /* one position of game_id's analysis: u.analysis_ply (0;
                                  -NOT_FOUND: no analysis of that game is under way). With
                                  u.analysis_ply.last the analysis is done as of its `at`. */
    /* Node leases (store_config.leases): */
    STORE_OP_LEASE,    /* nothing: a transaction, which renews the lease (at least every second) */
    STORE_OP_TAKEOVER, /* takes the lease of node u.takeover.node when it was not renewed for
                          u.takeover.expiry_ms, and its games in progress and its arenas not
                          finished with it: they become this node's (0; -CONFLICT: the lease is
                          held, or there is none) */
    /* Arena tournaments (docs/tournaments.md), this node's: */
    STORE_OP_ARENA,        /* an arena (u.arena; creator: player_id, "" for the operator),
                              or its new status when it is stored already */
    STORE_OP_ARENA_PLAYER, /* player_id joined u.arena_player.arena_id (or came back, or
                              withdrew: paused) */
    STORE_OP_GAME_ARENA,   /* game_id, stored by GAME_START before, is u.game_arena.arena_id's */
    STORE_OP_BERSERK,      /* game_id's side u.berserk.color went berserk */
};

/* What a moderator does (STORE_OP_MODERATE); store_mod_action_name() spells it. */
enum store_mod_action {
    STORE_MOD_MUTE,
    STORE_MOD_UNMUTE,
    STORE_MOD_BAN,
    STORE_MOD_UNBAN,
    STORE_MOD_CLOSE,
    STORE_MOD_REOPEN,
    STORE_MOD_RESOLVE, /* closes a report */
    STORE_MOD_GRANT,   /* makes an account an admin (no moderator: the server's configuration) */
    STORE_MOD_ACTION_COUNT
};

/* "mute", "unmute", ...; NULL out of range. */
const char *store_mod_action_name(int action);

/* Why a player is reported. */
enum store_report_kind {
    STORE_REPORT_CHEAT,
    STORE_REPORT_ABUSE,
    STORE_REPORT_SPAM,
    STORE_REPORT_OTHER,
    STORE_REPORT_KIND_COUNT
};

/* "cheat", "abuse", ...; NULL out of range. */
const char *store_report_kind_name(int kind);

#define STORE_NOTE_MAX   280 /* bytes of a moderator's note or a report's text */
#define STORE_BLOCKS_MAX 200 /* players one player may block */

enum store_token_kind { STORE_TOKEN_SESSION = 0, STORE_TOKEN_BOT = 1 };

struct store_move_row {
    int ply;
    char uci[8];
    char san[12];
    bool timed;       /* clock_ms and spent_ms are meaningful */
    int64_t clock_ms; /* the mover's time left after the move */
    int64_t spent_ms; /* time charged for the move */
    int64_t played_at;
};

/*
 * One searched position of a game's analysis: the position after `ply` plies (0: the start).
 * The store keeps the engine's numbers as they are; app/review.c gives them meaning.
 */
struct store_analysis_ply {
    int ply;
    int score;                  /* White's point of view, in the engine's units (chess/search.h:
                                   centipawns, or CHESS_MATE - n for a mate in n plies) */
    int depth;                  /* the search's depth; 0 for a final position (no search) */
    uint64_t nodes;             /* nodes searched */
    char pv[STORE_PV_TEXT_MAX]; /* the best line as UCI moves separated by spaces; "" at the
                                   end of the game */
    bool last;                  /* ANALYSIS_PLY: the analysis is complete with this one */
    int64_t at;                 /* ANALYSIS_PLY: when it was searched (wall ms) */
};

struct store_op {
    enum store_op_type type;
    uint64_t seq;         /* set by store_submit() */
    int64_t submitted_us; /* set by store_submit(): monotonic, for the commit latency */
    bool group_next;  /* set by store_submit_group(): commits in the same transaction as the next */
    uint64_t cookie;  /* returned in the result, when want_result */
    bool want_result; /* report this operation's own status through store_poll() */
    char game_id[STORE_ID_MAX + 1];
    char player_id[STORE_ID_MAX + 1];
    union {
        struct {
            char name[STORE_NAME_MAX + 1];
            int64_t created_at;
            bool has_token;
            uint8_t token_hash[STORE_HASH_LEN];
        } player;
        struct {
            char player_id[2][STORE_ID_MAX + 1]; /* white, black */
            char name[2][STORE_NAME_MAX + 1];
            bool unlimited;
            int64_t initial_ms, increment_ms;
            int days;          /* daily games: days per move; else 0 */
            char category[16]; /* the rating category's name (core/rating.h); "" for none */
            bool rated;
            int rating[2];                       /* before the game, rated games */
            char initial_fen[STORE_FEN_MAX + 1]; /* "" for the standard start */
            char variant[STORE_VARIANT_MAX + 1]; /* lichess's key (core/start.h); "" = standard */
            int64_t created_at;
        } start;
        struct store_move_row move;
        struct {
            int ply; /* plies left */
            bool timed;
            int64_t clock_ms[2]; /* white, black: time left now */
        } takeback;
        struct {
            char result[8]; /* "1-0", "0-1", "1/2-1/2", "*" */
            char termination[STORE_TERM_MAX];
            int ply_count;
            int64_t ended_at;
            bool rated;
            int category;
            char player_id[2][STORE_ID_MAX + 1];
            struct rating after[2]; /* new ratings (rated games) */
            int diff[2];            /* rounded rating changes */
        } end;
        struct {
            int room; /* 0 players, 1 spectators */
            char name[STORE_NAME_MAX + 1];
            char *text; /* owned by the op (malloc'd) */
            int64_t sent_at;
        } chat;
        struct {
            char name[STORE_NAME_MAX + 1];         /* the shown name: the username as typed */
            char username[STORE_USERNAME_MAX + 1]; /* lower-case */
            char password_hash[STORE_PWHASH_MAX];
            bool has_token; /* the guest's current session token, kept */
            uint8_t token_hash[STORE_HASH_LEN];
            int64_t at;
        } reg;
        struct {
            uint8_t hash[STORE_HASH_LEN];
            enum store_token_kind kind;
            char label[32];
            int64_t at;
        } token;
        struct {
            char bot_id[STORE_ID_MAX + 1];         /* BOT_CREATE: the new bot's id */
            char name[STORE_NAME_MAX + 1];         /* BOT_CREATE: the username as typed */
            char username[STORE_USERNAME_MAX + 1]; /* lower-case */
            uint8_t token_hash[STORE_HASH_LEN];    /* CREATE, TOKEN */
            int max_bots;                          /* CREATE: bots an account may own */
            int64_t at;
        } bot;
        struct {
            char password_hash[STORE_PWHASH_MAX];    /* PASSWORD_SET */
            bool has_keep;                           /* PASSWORD_SET, SESSIONS_REVOKE: */
            uint8_t keep[STORE_HASH_LEN];            /* the session that stays (the asker's) */
            uint8_t session[STORE_SESSION_ID_BYTES]; /* SESSION_REVOKE */
            int64_t at;
        } account;
        struct {
            uint8_t hash[STORE_HASH_LEN];                /* CREATE, USED */
            uint8_t id[STORE_SESSION_ID_BYTES];          /* REVOKE: the first bytes of its hash */
            char description[STORE_DESCRIPTION_MAX + 1]; /* CREATE */
            char scopes[STORE_SCOPES_MAX];               /* CREATE: "board:play,bot:play" */
            int max_tokens;                              /* CREATE: working tokens allowed */
            int64_t at;
        } api_token;
        struct {
            char white[STORE_NAME_MAX + 1], black[STORE_NAME_MAX + 1];
            char result[8];
            char initial_fen[STORE_FEN_MAX + 1];
            char variant[STORE_VARIANT_MAX + 1]; /* as in start; "" = standard */
            char *pgn;                           /* owned (malloc'd) */
            struct store_move_row *moves;        /* owned (malloc'd), count entries */
            int count;
            int64_t at;
        } import;
        struct {
            /* player_id: the moderator, or "" for the server's configuration (GRANT). */
            enum store_mod_action action;
            char target_id[STORE_ID_MAX + 1];      /* the player acted on ("" for RESOLVE) */
            char username[STORE_USERNAME_MAX + 1]; /* GRANT: the account by name (or id) */
            int64_t report_id;                     /* RESOLVE: the report closed */
            bool first_only;                       /* GRANT: only when there is no admin yet */
            char note[STORE_NOTE_MAX + 1];
            int64_t at;
        } mod;
        struct {
            char target_id[STORE_ID_MAX + 1];
            bool on; /* false: unblock */
            int64_t at;
        } block;
        struct {
            char *json; /* owned by the op (malloc'd): at most STORE_SETTINGS_MAX bytes */
            int64_t at;
        } settings;
        struct {
            int positions;  /* positions to search: the game's plies + 1 */
            uint64_t nodes; /* the search budget of each position */
            int max_queue;  /* analyses under way on the site beyond which it is refused */
            int64_t at;
        } analysis;
        struct store_analysis_ply analysis_ply;
        struct {
            char node[STORE_NODE_MAX + 1];
            int64_t expiry_ms;
        } takeover;
        struct {
            char target_id[STORE_ID_MAX + 1];
            enum store_report_kind kind;
            char game_id[STORE_ID_MAX + 1]; /* "" for none */
            char text[STORE_NOTE_MAX + 1];
            int64_t at;
        } report;
        struct {
            char id[STORE_ID_MAX + 1];
            char name[STORE_ARENA_NAME_MAX + 1];
            int64_t initial_ms, increment_ms;
            bool rated;
            int64_t starts_at; /* Unix ms */
            int minutes;
            char status[12]; /* "created", "started", "finished" */
            int64_t created_at;
        } arena;
        struct {
            char arena_id[STORE_ID_MAX + 1];
            char name[STORE_NAME_MAX + 1];
            int rating;
            int seq; /* joining order, from 1 */
            bool paused;
            int64_t at;
        } arena_player;
        struct {
            char arena_id[STORE_ID_MAX + 1];
        } game_arena;
        struct {
            int color; /* 0 white, 1 black */
        } berserk;
    } u;
};

/* Queue lengths and error counts, for metrics. The last two are the backend's (0 where it has
 * no such thing). */
struct store_stats {
    uint64_t write_queue;         /* operations waiting for the writer */
    uint64_t read_queue;          /* read jobs waiting for a reader */
    int readers;                  /* reader threads */
    uint64_t commits;             /* transactions committed */
    uint64_t transactions_failed; /* transactions rolled back (each attempt counts) */
    bool database_down;           /* the writer is waiting for a database it cannot reach */
    uint64_t checkpoints;         /* checkpoints run by the backend */
    uint64_t log_truncations;     /* times the writer truncated the backend's log past a bound */
};

enum store_result_kind {
    STORE_RESULT_WRITE,  /* an operation submitted with want_result */
    STORE_RESULT_COMMIT, /* one transaction committed (for metrics; cookie 0) */
    STORE_RESULT_BACKUP, /* a backup asked for with store_backup_request() ended (cookie 0) */
};

struct store_result {
    enum store_result_kind kind;
    uint64_t cookie;
    int status; /* 0 or a negative enum store_status */
    /* COMMIT: operations in the transaction, its time from BEGIN to the end of COMMIT, and
     * how long its oldest operation waited from store_submit() to the end of COMMIT. */
    int ops;
    int64_t commit_us, wait_us;
    /* BACKUP: the instant it copies (Unix ms, the time in its file name: everything committed
     * before it is in the file), and how long it took. */
    int64_t backup_at_ms, backup_us;
};

typedef void (*store_result_fn)(void *ctx, const struct store_result *result);

#endif
