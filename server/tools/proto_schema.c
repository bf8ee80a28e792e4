/*
 * proto_schema: the message table (server/src/proto/messages.def, as proto.c builds it) printed
 * for the other places that must agree with it.
 *
 *   proto_schema                  the TypeScript types of every message, on stdout
 *   proto_schema --ts FILE        the same, written to FILE (client/src/net/messages.gen.ts)
 *   proto_schema --check FILE     exits 1, naming the first difference and the command that
 *                                 regenerates FILE, when FILE is not what --ts would write
 *   proto_schema --json           the table as JSON: field kinds, client messages, server
 *                                 messages, error codes (tests/integration/check_protocol_doc.py)
 *
 * The TypeScript holds a string-literal union per word field (ColorChoice, ...), the error codes
 * (ErrorCode), one interface per client message (MoveRequest, ...) and their union
 * ClientMessage, one interface per server message (MoveMessage, ...) and their union
 * ServerMessage. Other type names in the declaration are the shapes client/src/net/protocol.ts
 * keeps by hand; the file imports them from there.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

#define REGENERATE "cmake --build --preset release --target update_messages_ts"

/* The names the declaration uses, as written there. */
static const char *const kind_names[PROTO_FIELD_COUNT] = {
#define PROTO_FIELD(kind, ...) [PROTO_FIELD_##kind] = #kind,
#include "proto/messages.def"
};

static const char *const command_names[PROTO_MSG_COUNT] = {
#define PROTO_CLIENT(name, type, who, core, ...) [PROTO_MSG_##name] = #core,
#include "proto/messages.def"
};

static const char *const check_names[] = {
    [PROTO_CHECK_ID] = "id",       [PROTO_CHECK_TEXT] = "text", [PROTO_CHECK_NAME] = "name",
    [PROTO_CHECK_INT] = "int",     [PROTO_CHECK_WORD] = "word", [PROTO_CHECK_TIME] = "time",
    [PROTO_CHECK_MOVES] = "moves", [PROTO_CHECK_BOOL] = "bool", [PROTO_CHECK_OBJECT] = "object",
};

/* ---- names ---- */

/* "bot_token_create" + "Request" -> "BotTokenCreateRequest". */
static void pascal_name(const char *type, const char *suffix, char *out, size_t size) {
    size_t n = 0;
    bool upper = true;
    for (const char *p = type; *p && n + 1 < size; p++) {
        if (*p == '_') {
            upper = true;
            continue;
        }
        out[n++] = upper ? (char)toupper((unsigned char)*p) : *p;
        upper = false;
    }
    out[n] = '\0';
    snprintf(out + n, size - n, "%s", suffix);
}

/* A name the generated file defines itself. */
static bool generated_name(const char *name) {
    if (strcmp(name, "ErrorCode") == 0 || strcmp(name, "ClientMessage") == 0 ||
        strcmp(name, "ServerMessage") == 0)
        return true;
    for (int k = 0; k < PROTO_FIELD_COUNT; k++) {
        if (proto_fields[k].check == PROTO_CHECK_WORD && strcmp(proto_fields[k].ts, name) == 0)
            return true;
    }
    return false;
}

/* The shared types named in TypeScript expressions, each once, sorted. */
struct names {
    char items[64][40];
    int count;
};

static void names_add(struct names *set, const char *name, size_t len) {
    if (len >= sizeof set->items[0]) return;
    char word[40];
    memcpy(word, name, len);
    word[len] = '\0';
    static const char *const builtins[] = {"Record", "Partial", "Array", "Readonly"};
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        if (strcmp(word, builtins[i]) == 0) return;
    }
    if (generated_name(word)) return;
    int at = 0;
    while (at < set->count && strcmp(set->items[at], word) < 0) at++;
    if (at < set->count && strcmp(set->items[at], word) == 0) return;
    if (set->count == (int)(sizeof set->items / sizeof set->items[0])) return;
    memmove(set->items[at + 1], set->items[at], sizeof set->items[0] * (size_t)(set->count - at));
    memcpy(set->items[at], word, len + 1);
    set->count++;
}

/* Type names start with a capital letter; keys and primitives do not. */
static void names_scan(struct names *set, const char *ts) {
    for (const char *p = ts; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            p++;
            continue;
        }
        const char *start = p;
        while (isalnum((unsigned char)*p) || *p == '_') p++;
        if (isupper((unsigned char)*start)) names_add(set, start, (size_t)(p - start));
    }
}

/* ---- TypeScript ---- */

/* What a client field's kind allows, for a comment; "" when its type says it all. */
static void field_limits(const struct proto_field_spec *f, char *out, size_t size) {
    out[0] = '\0';
    switch (f->check) {
        case PROTO_CHECK_ID:
            snprintf(out, size, "%lld-%lld letters and digits", f->min, f->max);
            break;
        case PROTO_CHECK_TEXT: snprintf(out, size, "%lld-%lld bytes", f->min, f->max); break;
        case PROTO_CHECK_NAME:
            snprintf(out, size, "%lld-%lld letters, digits, _ or -", f->min, f->max);
            break;
        case PROTO_CHECK_INT: snprintf(out, size, "%lld to %lld", f->min, f->max); break;
        case PROTO_CHECK_TIME:
            snprintf(out, size, "minutes from %g to %g, increment 0 to %lld s", f->min / 60000.0,
                     f->max / 60000.0, TC_MAX_INCREMENT_MS / 1000);
            break;
        case PROTO_CHECK_MOVES:
            snprintf(out, size, "at most %lld moves, UCI or SAN", f->max);
            break;
        case PROTO_CHECK_WORD:
        case PROTO_CHECK_BOOL:
        case PROTO_CHECK_OBJECT: break;
    }
}

/* `export type Name = 'a' | 'b';`, one member a line when it does not fit on one. */
static void ts_union(FILE *out, const char *name, const char *const *members, int count,
                     bool quoted) {
    size_t width = strlen("export type  = ;") + strlen(name);
    for (int i = 0; i < count; i++) width += strlen(members[i]) + (quoted ? 2 : 0) + 3;
    fprintf(out, "export type %s =", name);
    for (int i = 0; i < count; i++) {
        const char *q = quoted ? "'" : "";
        if (width <= 100)
            fprintf(out, "%s%s%s%s", i ? " | " : " ", q, members[i], q);
        else
            fprintf(out, "\n  | %s%s%s", q, members[i], q);
    }
    fprintf(out, ";\n");
}

static void write_words(FILE *out) {
    fprintf(out, "// ---- words a client sends ----\n");
    for (int k = 0; k < PROTO_FIELD_COUNT; k++) {
        const struct proto_field_spec *f = &proto_fields[k];
        if (f->check != PROTO_CHECK_WORD) continue;
        fprintf(out, "\n/** \"%s\" */\n", f->key);
        ts_union(out, f->ts, f->words.words, f->words.count, true);
    }
}

static void write_error_codes(FILE *out) {
    const char *codes[CORE_ERR_COUNT + PROTO_ERR_END - PROTO_ERR_FIRST];
    int n = 0;
    for (int code = 1; code < CORE_ERR_COUNT; code++) codes[n++] = proto_error_name(-code);
    for (int code = PROTO_ERR_FIRST + 1; code < PROTO_ERR_END; code++)
        codes[n++] = proto_error_name(-code);
    fprintf(out, "\n/** The stable codes of \"error\" messages (docs/protocol.md#errors). */\n");
    ts_union(out, "ErrorCode", codes, n, true);
}

static void write_client(FILE *out) {
    fprintf(out, "\n// ---- client to server ----\n");
    for (int i = 0; i < PROTO_MSG_COUNT; i++) {
        const struct proto_message_spec *m = &proto_messages[i];
        char name[64];
        pascal_name(m->type, "Request", name, sizeof name);
        fprintf(out, "\n");
        if (!m->needs_hello) fprintf(out, "/** May be sent before hello. */\n");
        fprintf(out, "export interface %s {\n  type: '%s';\n", name, m->type);
        for (int k = 0; k < PROTO_FIELD_COUNT; k++) {
            const struct proto_field_spec *f = &proto_fields[k];
            if (m->use[k] == PROTO_UNUSED) continue;
            char limits[96];
            field_limits(f, limits, sizeof limits);
            if (limits[0]) fprintf(out, "  /** %s */\n", limits);
            fprintf(out, "  %s%s: %s;\n", f->key, m->use[k] == PROTO_REQUIRED ? "" : "?", f->ts);
        }
        fprintf(out, "  id?: RequestId;\n}\n");
    }
    const char *names[PROTO_MSG_COUNT];
    char storage[PROTO_MSG_COUNT][64];
    for (int i = 0; i < PROTO_MSG_COUNT; i++) {
        pascal_name(proto_messages[i].type, "Request", storage[i], sizeof storage[i]);
        names[i] = storage[i];
    }
    fprintf(out, "\n");
    ts_union(out, "ClientMessage", names, PROTO_MSG_COUNT, false);
}

static void write_server(FILE *out) {
    fprintf(out, "\n// ---- server to client ----\n");
    for (int i = 0; i < PROTO_OUT_COUNT; i++) {
        const struct proto_server_spec *m = &proto_server_messages[i];
        char name[64];
        pascal_name(m->type, "Message", name, sizeof name);
        fprintf(out, "\nexport interface %s {\n  type: '%s';\n", name, m->type);
        for (int k = 0; k < m->key_count; k++) {
            const struct proto_key *key = &m->keys[k];
            fprintf(out, "  %s%s: %s;\n", key->key, key->required ? "" : "?", key->ts);
        }
        fprintf(out, "  id?: RequestId;\n}\n");
    }
    const char *names[PROTO_OUT_COUNT];
    char storage[PROTO_OUT_COUNT][64];
    for (int i = 0; i < PROTO_OUT_COUNT; i++) {
        pascal_name(proto_server_messages[i].type, "Message", storage[i], sizeof storage[i]);
        names[i] = storage[i];
    }
    fprintf(out, "\n");
    ts_union(out, "ServerMessage", names, PROTO_OUT_COUNT, false);
}

static void write_ts(FILE *out) {
    struct names shared = {.count = 0};
    names_add(&shared, "RequestId", strlen("RequestId"));
    for (int k = 0; k < PROTO_FIELD_COUNT; k++) names_scan(&shared, proto_fields[k].ts);
    for (int i = 0; i < PROTO_OUT_COUNT; i++) {
        for (int k = 0; k < proto_server_messages[i].key_count; k++)
            names_scan(&shared, proto_server_messages[i].keys[k].ts);
    }
    fprintf(out,
            "// Generated from server/src/proto/messages.def by server/tools/proto_schema.c: do "
            "not edit.\n"
            "// Regenerate with: " REGENERATE "\n"
            "//\n"
            "// Protocol v%d (docs/protocol.md): every message a client sends (ClientMessage) and "
            "every\n"
            "// message the server sends (ServerMessage). The shapes inside them are kept by hand "
            "in\n"
            "// protocol.ts, which re-exports these types.\n",
            PROTO_VERSION);
    /* One line when it fits, else one name a line. */
    size_t width = strlen("import type {  } from './protocol';");
    for (int i = 0; i < shared.count; i++) width += strlen(shared.items[i]) + 2;
    fprintf(out, "import type {");
    for (int i = 0; i < shared.count; i++) {
        if (width <= 100)
            fprintf(out, "%s%s", i ? ", " : " ", shared.items[i]);
        else
            fprintf(out, "\n  %s,", shared.items[i]);
    }
    fprintf(out, "%s} from './protocol';\n\n", width <= 100 ? " " : "\n");
    write_words(out);
    write_error_codes(out);
    write_client(out);
    write_server(out);
}

/* ---- JSON ---- */

static json_t *field_json(int k) {
    const struct proto_field_spec *f = &proto_fields[k];
    json_t *words = json_array();
    for (int i = 0; words && i < f->words.count; i++)
        json_array_append_new(words, json_string(f->words.words[i]));
    return json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:s}", "kind", kind_names[k], "key", f->key, "check",
                     check_names[f->check], "min", (json_int_t)f->min, "max", (json_int_t)f->max,
                     "words", words, "ts", f->ts);
}

static json_t *client_json(int i) {
    const struct proto_message_spec *m = &proto_messages[i];
    json_t *fields = json_array();
    for (int k = 0; fields && k < PROTO_FIELD_COUNT; k++) {
        if (m->use[k] == PROTO_UNUSED) continue;
        json_array_append_new(fields,
                              json_pack("{s:s,s:s,s:b,s:s}", "key", proto_fields[k].key, "kind",
                                        kind_names[k], "required", m->use[k] == PROTO_REQUIRED,
                                        "ts", proto_fields[k].ts));
    }
    return json_pack("{s:s,s:b,s:s?,s:s,s:b,s:o}", "type", m->type, "after_hello",
                     m->needs_hello != 0, "command",
                     m->core == PROTO_NO_CMD ? NULL : command_names[i], "handler", m->handler,
                     "writes", m->writes, "fields", fields);
}

static json_t *server_json(int i) {
    const struct proto_server_spec *m = &proto_server_messages[i];
    json_t *keys = json_array();
    for (int k = 0; keys && k < m->key_count; k++)
        json_array_append_new(keys, json_pack("{s:s,s:s,s:b}", "key", m->keys[k].key, "ts",
                                              m->keys[k].ts, "required", m->keys[k].required));
    return json_pack("{s:s,s:o}", "type", m->type, "keys", keys);
}

static json_t *schema_json(void) {
    json_t *fields = json_array(), *client = json_array(), *server = json_array();
    json_t *errors = json_array();
    for (int k = 0; fields && k < PROTO_FIELD_COUNT; k++)
        json_array_append_new(fields, field_json(k));
    for (int i = 0; client && i < PROTO_MSG_COUNT; i++)
        json_array_append_new(client, client_json(i));
    for (int i = 0; server && i < PROTO_OUT_COUNT; i++)
        json_array_append_new(server, server_json(i));
    for (int code = 1; errors && code < PROTO_ERR_END; code++) {
        if (code == PROTO_ERR_FIRST) continue;
        json_array_append_new(errors, json_pack("{s:s,s:s}", "code", proto_error_name(-code),
                                                "message", proto_error_message(-code)));
    }
    return json_pack("{s:i,s:o,s:o,s:o,s:o}", "protocol", PROTO_VERSION, "fields", fields, "client",
                     client, "server", server, "errors", errors);
}

/* ---- files ---- */

/* The TypeScript as a malloc'd string, or NULL when memory ran out. */
static char *ts_text(size_t *len) {
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (!out) return NULL;
    write_ts(out);
    bool failed = ferror(out) != 0;
    if (fclose(out) != 0 || failed) {
        free(text);
        return NULL;
    }
    return text;
}

/* The whole file as a malloc'd string, or NULL (errno set). */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = realloc(text, cap);
            if (!grown) goto fail;
            text = grown;
        }
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) goto fail;
    fclose(f);
    *len = n;
    return text;
fail:
    free(text);
    fclose(f);
    return NULL;
}

/* Prints the line of text that starts at start, or that the text ends there. */
static void print_line(const char *what, const char *text, size_t len, size_t start) {
    if (start >= len) {
        printf("  %-10s (the end)\n", what);
        return;
    }
    size_t end = start;
    while (end < len && text[end] != '\n') end++;
    printf("  %-10s %.*s%s\n", what, (int)(end - start), text + start,
           end == len ? " (no newline at the end)" : "");
}

/* Exit status: 0 when the file holds exactly the generated text, 1 when it differs (the first
 * different line is printed), 2 when it cannot be read or the text not made. */
static int check_ts(const char *path) {
    size_t want_len, have_len;
    char *want = ts_text(&want_len);
    if (!want) {
        fprintf(stderr, "proto_schema: out of memory\n");
        return 2;
    }
    char *have = read_file(path, &have_len);
    if (!have) {
        fprintf(stderr, "proto_schema: %s: %s\n", path, strerror(errno));
        fprintf(stderr, "Generate it: %s\n", REGENERATE);
        free(want);
        return 2;
    }
    int status = 0;
    if (have_len != want_len || memcmp(have, want, want_len) != 0) {
        size_t at = 0, line = 1, start = 0;
        while (at < have_len && at < want_len && have[at] == want[at]) {
            if (have[at] == '\n') {
                line++;
                start = at + 1;
            }
            at++;
        }
        printf("%s is not what server/src/proto/messages.def generates.\n"
               "First difference, line %zu:\n",
               path, line);
        print_line("generated", want, want_len, start);
        print_line("in file", have, have_len, start);
        printf("Regenerate it: %s\n", REGENERATE);
        status = 1;
    }
    free(want);
    free(have);
    return status;
}

static int write_ts_file(const char *path) {
    size_t len;
    char *text = ts_text(&len);
    if (!text) {
        fprintf(stderr, "proto_schema: out of memory\n");
        return 2;
    }
    FILE *f = fopen(path, "wb");
    int status = 0;
    if (!f || fwrite(text, 1, len, f) != len) status = 2;
    if (f && fclose(f) != 0) status = 2;
    if (status) fprintf(stderr, "proto_schema: %s: %s\n", path, strerror(errno));
    free(text);
    return status;
}

static void usage(FILE *out) {
    fprintf(out, "usage: proto_schema [--ts FILE | --check FILE | --json]\n"
                 "  Prints the message table (server/src/proto/messages.def) as TypeScript.\n"
                 "  --ts FILE     write the TypeScript to FILE\n"
                 "  --check FILE  exit 1 when FILE differs from the TypeScript\n"
                 "  --json        print the table as JSON\n");
}

int main(int argc, char **argv) {
    if (argc == 1) {
        write_ts(stdout);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 2;
    }
    if (argc == 3 && strcmp(argv[1], "--ts") == 0) return write_ts_file(argv[2]);
    if (argc == 3 && strcmp(argv[1], "--check") == 0) return check_ts(argv[2]);
    if (argc == 2 && strcmp(argv[1], "--json") == 0) {
        json_t *schema = schema_json();
        int rc = schema ? json_dumpf(schema, stdout, JSON_INDENT(2)) : -1;
        json_decref(schema);
        if (rc < 0 || fputc('\n', stdout) == EOF || fflush(stdout) != 0) {
            fprintf(stderr, "proto_schema: cannot write the JSON\n");
            return 2;
        }
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    usage(stderr);
    return 2;
}
