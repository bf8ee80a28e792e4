/*
 * The operator's password reset from the command line (chess_server --reset-password USERNAME,
 * docs/self-hosting.md), for a server without e-mail: the new password is read from a line of
 * input (typed without echo on a terminal) or, when that line is empty, generated and printed;
 * it must follow the rules of register. It is hashed here (Argon2id) and written with every
 * session of the account revoked, in one transaction, beside a server that may be running on the
 * same data (store.h, store_reset_password).
 *
 * Main thread, outside the server.
 */
#ifndef SERVER_APP_RESET_H
#define SERVER_APP_RESET_H

#include <stdio.h>

#include "store/store.h"

/*
 * Resets the password of the account named username (any case) in the store cfg names, reading
 * the new password's line from in; messages for the operator go to out (the generated password
 * among them) and err. Returns the process's exit status: 0 done, 1 not done (no such account,
 * no database there, the database busy or failing: said on err), 2 a username or password that
 * breaks the rules (nothing changed).
 */
int reset_password_run(const struct store_config *cfg, const char *username, FILE *in, FILE *out,
                       FILE *err);

#endif
