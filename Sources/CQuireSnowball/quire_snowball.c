// An FTS5 tokenizer that stems with Snowball (libstemmer), the stemmers Couchbase Lite's
// full-text search uses, over SQLite's own unicode61 tokenizer. Written against the FTS5
// tokenizer API of SQLite's documentation ("Custom Tokenizers").

#include "quire_snowball.h"

#include <libstemmer.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

typedef struct SnowballTokenizer {
    fts5_tokenizer parent;          // unicode61's methods
    Fts5Tokenizer *parentInstance;  // unicode61 with the remaining arguments
    struct sb_stemmer *stemmer;     // not thread-safe: one per tokenizer, which FTS5 uses from one connection
} SnowballTokenizer;

typedef struct StemContext {
    void *context;
    int (*token)(void *, int, const char *, int, int, int);
    struct sb_stemmer *stemmer;
} StemContext;

static int snowball_create(void *userData, const char **arguments, int count, Fts5Tokenizer **out) {
    fts5_api *api = (fts5_api *)userData;
    *out = NULL;
    if (count < 1) return SQLITE_ERROR;
    SnowballTokenizer *tokenizer = calloc(1, sizeof(SnowballTokenizer));
    if (tokenizer == NULL) return SQLITE_NOMEM;
    tokenizer->stemmer = sb_stemmer_new(arguments[0], "UTF_8");
    if (tokenizer->stemmer == NULL) {
        free(tokenizer);
        return SQLITE_ERROR;
    }
    void *parentData = NULL;
    int rc = api->xFindTokenizer(api, "unicode61", &parentData, &tokenizer->parent);
    if (rc == SQLITE_OK) rc = tokenizer->parent.xCreate(parentData, arguments + 1, count - 1, &tokenizer->parentInstance);
    if (rc != SQLITE_OK) {
        sb_stemmer_delete(tokenizer->stemmer);
        free(tokenizer);
        return rc;
    }
    *out = (Fts5Tokenizer *)tokenizer;
    return SQLITE_OK;
}

static void snowball_delete(Fts5Tokenizer *instance) {
    SnowballTokenizer *tokenizer = (SnowballTokenizer *)instance;
    if (tokenizer == NULL) return;
    if (tokenizer->parentInstance != NULL) tokenizer->parent.xDelete(tokenizer->parentInstance);
    sb_stemmer_delete(tokenizer->stemmer);
    free(tokenizer);
}

static int snowball_stem(void *context, int flags, const char *text, int length, int start, int end) {
    StemContext *stem = (StemContext *)context;
    const sb_symbol *stemmed = sb_stemmer_stem(stem->stemmer, (const sb_symbol *)text, length);
    if (stemmed == NULL) return SQLITE_NOMEM;
    return stem->token(stem->context, flags, (const char *)stemmed, sb_stemmer_length(stem->stemmer), start, end);
}

static int snowball_tokenize(
    Fts5Tokenizer *instance, void *context, int flags, const char *text, int length,
    int (*token)(void *, int, const char *, int, int, int)) {
    SnowballTokenizer *tokenizer = (SnowballTokenizer *)instance;
    StemContext stem = {context, token, tokenizer->stemmer};
    return tokenizer->parent.xTokenize(tokenizer->parentInstance, &stem, flags, text, length, snowball_stem);
}

static fts5_api *fts5_api_of(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) == SQLITE_OK) {
        sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
        sqlite3_step(statement);
    }
    sqlite3_finalize(statement);
    return api;
}

static int snowball_connect(sqlite3 *db, char **error, const sqlite3_api_routines *routines) {
    (void)error;
    (void)routines;
    fts5_api *api = fts5_api_of(db);
    // Without FTS5 there is nothing to register, and opening the connection must not fail.
    if (api == NULL || api->iVersion < 2) return SQLITE_OK;
    fts5_tokenizer methods = {snowball_create, snowball_delete, snowball_tokenize};
    return api->xCreateTokenizer(api, "quire_snowball", (void *)api, &methods, NULL);
}

int quire_snowball_register(void) {
    // sqlite3_auto_extension ignores an entry point that is already registered.
    return sqlite3_auto_extension((void (*)(void))snowball_connect);
}

int quire_snowball_has_algorithm(const char *name) {
    struct sb_stemmer *stemmer = sb_stemmer_new(name, "UTF_8");
    if (stemmer == NULL) return 0;
    sb_stemmer_delete(stemmer);
    return 1;
}
