// Couchbase Lite's relevance as an FTS5 auxiliary function, and the FTS5 API lookup the
// Snowball tokenizer shares. Written against SQLite's FTS5 documentation ("Custom Auxiliary
// Functions"). Needs only SQLite.

#include "quire_fts.h"

#include <sqlite3.h>
#include <string.h>

// Couchbase Lite's relevance (LiteCore's rank(), from SQLite's FTS3 documentation): the sum,
// over the query's phrases and the table's columns, of the phrase's hits in this row's column
// divided by its hits in that column across all rows; larger is more relevant. Returned
// negated, as FTS5's rank column orders (smaller first). The all-rows counts are computed
// once per query and kept as auxiliary data.
typedef struct RankTotals {
    int phrases;
    int columns;
    sqlite3_int64 hits[];  // [phrase * columns + column]
} RankTotals;

typedef struct PhraseCount {
    const Fts5ExtensionApi *api;
    RankTotals *totals;
    int phrase;
} PhraseCount;

static int rank_count_phrase(const Fts5ExtensionApi *api, Fts5Context *context, void *userData) {
    PhraseCount *count = (PhraseCount *)userData;
    int instances = 0;
    int rc = api->xInstCount(context, &instances);
    for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
        int phrase = 0, column = 0, offset = 0;
        rc = api->xInst(context, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK && column >= 0 && column < count->totals->columns)
            count->totals->hits[count->phrase * count->totals->columns + column]++;
    }
    return rc;
}

static int rank_totals(const Fts5ExtensionApi *api, Fts5Context *context, RankTotals **out) {
    RankTotals *totals = (RankTotals *)api->xGetAuxdata(context, 0);
    if (totals == NULL) {
        int phrases = api->xPhraseCount(context);
        int columns = api->xColumnCount(context);
        size_t size = sizeof(RankTotals) + sizeof(sqlite3_int64) * (size_t)(phrases > 0 ? phrases : 1) * (size_t)(columns > 0 ? columns : 1);
        totals = sqlite3_malloc64(size);
        if (totals == NULL) return SQLITE_NOMEM;
        memset(totals, 0, size);
        totals->phrases = phrases;
        totals->columns = columns;
        int rc = SQLITE_OK;
        for (int phrase = 0; rc == SQLITE_OK && phrase < phrases; phrase++) {
            PhraseCount count = {api, totals, phrase};
            rc = api->xQueryPhrase(context, phrase, &count, rank_count_phrase);
        }
        if (rc == SQLITE_OK) rc = api->xSetAuxdata(context, totals, sqlite3_free);
        else sqlite3_free(totals);
        if (rc != SQLITE_OK) return rc;
    }
    *out = totals;
    return SQLITE_OK;
}

static void quire_rank(const Fts5ExtensionApi *api, Fts5Context *context, sqlite3_context *result, int count, sqlite3_value **values) {
    (void)count;
    (void)values;
    RankTotals *totals = NULL;
    int rc = rank_totals(api, context, &totals);
    int instances = 0;
    if (rc == SQLITE_OK) rc = api->xInstCount(context, &instances);
    double score = 0;
    if (rc == SQLITE_OK && instances > 0) {
        size_t cells = (size_t)totals->phrases * (size_t)totals->columns;
        int *hits = sqlite3_malloc64(sizeof(int) * (cells > 0 ? cells : 1));
        if (hits == NULL) rc = SQLITE_NOMEM;
        else {
            memset(hits, 0, sizeof(int) * (cells > 0 ? cells : 1));
            for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
                int phrase = 0, column = 0, offset = 0;
                rc = api->xInst(context, i, &phrase, &column, &offset);
                if (rc == SQLITE_OK && phrase >= 0 && phrase < totals->phrases && column >= 0 && column < totals->columns)
                    hits[phrase * totals->columns + column]++;
            }
            for (size_t cell = 0; cell < cells; cell++) {
                if (hits[cell] > 0 && totals->hits[cell] > 0) score += (double)hits[cell] / (double)totals->hits[cell];
            }
            sqlite3_free(hits);
        }
    }
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(result, rc);
        return;
    }
    sqlite3_result_double(result, -score);
}

fts5_api *quire_fts5_api(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) == SQLITE_OK) {
        sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
        sqlite3_step(statement);
    }
    sqlite3_finalize(statement);
    return api != NULL && api->iVersion >= 2 ? api : NULL;
}

int quire_fts_register(sqlite3 *db) {
    fts5_api *api = quire_fts5_api(db);
    // Without FTS5 there is nothing to register, and opening the connection must not fail.
    if (api == NULL) return SQLITE_OK;
    return api->xCreateFunction(api, "quire_rank", NULL, quire_rank, NULL);
}
