/*
 * The errors the core can report, as one X-macro list: the stable code a client sees (the name
 * without the CORE_ERR_ prefix) and a readable message. The protocol layer adds its own codes
 * after CORE_ERR_COUNT and prints both through one function (proto_error_name).
 *
 * Core functions return 0 or a negative enum core_error.
 */
#ifndef SERVER_CORE_ERRORS_H
#define SERVER_CORE_ERRORS_H

#define CORE_ERRORS(X)                                                                             \
    X(GAME_NOT_FOUND, "no game with this id")                                                      \
    X(SEEK_NOT_FOUND, "no open seek with this id")                                                 \
    X(CHALLENGE_NOT_FOUND, "no open challenge with this id")                                       \
    X(NOT_A_PLAYER, "only the players of this game may do that")                                   \
    X(NOT_YOUR_TURN, "it is not your turn to move")                                                \
    X(MOVE_SYNTAX, "the move is neither UCI (e2e4, e7e8q) nor SAN (Nf3, O-O, exd8=Q)")             \
    X(ILLEGAL_MOVE, "the move is not legal in this position")                                      \
    X(AMBIGUOUS_MOVE, "the SAN move matches more than one legal move")                             \
    X(STALE_PLY, "the game has moved on: the ply you sent is not the current one")                 \
    X(GAME_OVER, "the game has ended")                                                             \
    X(GAME_NOT_OVER, "the game is still in progress")                                              \
    X(NO_DRAW_TO_CLAIM, "neither threefold repetition nor the fifty-move rule applies now")        \
    X(NO_OFFER, "your opponent has made no such offer")                                            \
    X(OFFER_PENDING, "you already have this offer pending")                                        \
    X(NOTHING_TO_TAKE_BACK, "you have no move to take back")                                       \
    X(TOO_LATE_TO_ABORT, "a game can be aborted only before both sides have moved")                \
    X(OWN_SEEK, "you cannot accept your own seek")                                                 \
    X(OWN_CHALLENGE, "you cannot accept your own challenge")                                       \
    X(TOO_MANY_SEEKS, "you have too many open seeks and challenges")                               \
    X(TOO_MANY_GAMES, "you are playing too many games at once")                                    \
    X(COMPUTER_UNAVAILABLE, "playing the computer is not available on this server")                \
    X(CHAT_INVALID, "chat text must be 1 to 140 characters without control characters")            \
    X(CHAT_NOT_ALLOWED, "only the players write in the players room")                              \
    X(CHAT_RATE_LIMITED, "too many chat messages; wait a few seconds")                             \
    X(OPPONENT_CONNECTED, "your opponent is connected")                                            \
    X(CLAIM_TOO_EARLY, "your opponent has not been away long enough to claim")                     \
    X(CLAIM_NO_CLOCK, "a game without a clock cannot be claimed as abandoned")                     \
    X(NOT_OWNER, "only its creator may cancel it")                                                 \
    X(REMATCH_DONE, "a rematch of this game has already started")                                  \
    X(NOT_INVITED, "this challenge is for another player")                                         \
    X(PLAYER_OFFLINE, "no player with this id is connected now")                                   \
    X(RATED_UNAVAILABLE, "a rated game needs two accounts and a clock (and no bot against a "      \
                         "person unless the server allows it)")                                    \
    X(CHAT_MUTED, "a moderator has muted you: you cannot chat for now")                            \
    X(BLOCKED, "this player does not accept games or challenges from you")                         \
    X(CANNOT_GIVE_TIME, "time can be given only to a person, in a game with a clock, once both "   \
                        "sides have moved")                                                        \
    X(NO_SUCH_POOL, "quick pairing is for the lobby's presets (1+0 to 30+0) only")                 \
    X(BAD_POSITION, "the position is not a legal chess position (or the variant or Chess960 "      \
                    "number is unknown)")                                                          \
    X(POSITION_OVER, "the game would be over before its first move: no legal move, or no "         \
                     "mating material")                                                            \
    X(DAILY_NEEDS_ACCOUNT,                                                                         \
      "a daily (correspondence) game is for accounts, bots and the computer: "                     \
      "sign in to play one")                                                                       \
    X(ARENA_NOT_FOUND, "no arena tournament with this id")                                         \
    X(ARENA_FINISHED, "this arena tournament has ended")                                           \
    X(ARENA_NOT_JOINED, "you have not joined this arena tournament")                               \
    X(ARENA_NEEDS_ACCOUNT, "arena tournaments are for accounts: sign in to create or join one")    \
    X(TOO_MANY_ARENAS, "you have as many arena tournaments not yet ended as an account may")       \
    X(ARENA_BAD_SETTINGS, "an arena needs a clock (no unlimited or daily games), a name of 2 to "  \
                          "30 characters, 1 to 720 minutes and a start within a week")             \
    X(BERSERK_NOT_ALLOWED, "berserk is for arena games with a clock, once, before your first "     \
                           "move")                                                                 \
    X(NO_MEMORY, "the server ran out of memory")

enum core_error {
    CORE_OK = 0,
#define CORE_ERROR_ENUM(name, message) CORE_ERR_##name,
    CORE_ERRORS(CORE_ERROR_ENUM)
#undef CORE_ERROR_ENUM
        CORE_ERR_COUNT
};

#endif
