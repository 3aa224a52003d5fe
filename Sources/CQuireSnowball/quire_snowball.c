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
    const char *const *stopWords;   // sorted, NULL-terminated; NULL for none
} SnowballTokenizer;

typedef struct StemContext {
    void *context;
    int (*token)(void *, int, const char *, int, int, int);
    struct sb_stemmer *stemmer;
    const char *const *stopWords;
    int tokenizeFlags;  // FTS5_TOKENIZE_QUERY, _PREFIX ... of the text being tokenized
} StemContext;

// Snowball's English stop-word list (snowballstem.org, algorithms/english/stop.txt), the list
// Couchbase Lite's full-text search drops from English text and queries. Sorted by strcmp
// for the binary search below; apostrophes as unicode61 leaves them (it splits on them by
// default, so the contracted forms only matter to a tokenizer told to keep them).
static const char *const englishStopWords[] = {
    "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are",
    "aren't", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
    "but", "by", "can't", "cannot", "could", "couldn't", "did", "didn't", "do", "does", "doesn't",
    "doing", "don't", "down", "during", "each", "few", "for", "from", "further", "had", "hadn't",
    "has", "hasn't", "have", "haven't", "having", "he", "he'd", "he'll", "he's", "her", "here",
    "here's", "hers", "herself", "him", "himself", "his", "how", "how's", "i", "i'd", "i'll",
    "i'm", "i've", "if", "in", "into", "is", "isn't", "it", "it's", "its", "itself", "let's",
    "me", "more", "most", "mustn't", "my", "myself", "no", "nor", "not", "of", "off", "on",
    "once", "only", "or", "other", "ought", "our", "ours", "ourselves", "out", "over", "own",
    "same", "shan't", "she", "she'd", "she'll", "she's", "should", "shouldn't", "so", "some",
    "such", "than", "that", "that's", "the", "their", "theirs", "them", "themselves", "then",
    "there", "there's", "these", "they", "they'd", "they'll", "they're", "they've", "this",
    "those", "through", "to", "too", "under", "until", "up", "very", "was", "wasn't", "we",
    "we'd", "we'll", "we're", "we've", "were", "weren't", "what", "what's", "when", "when's",
    "where", "where's", "which", "while", "who", "who's", "whom", "why", "why's", "with",
    "won't", "would", "wouldn't", "you", "you'd", "you'll", "you're", "you've", "your", "yours",
    "yourself", "yourselves", NULL};

static const char *const *stop_words_named(const char *name) {
    if (strcmp(name, "en") == 0) return englishStopWords;
    return NULL;
}

static size_t stop_word_count(const char *const *words) {
    size_t count = 0;
    while (words[count] != NULL) count++;
    return count;
}

static int is_stop_word(const char *const *words, const char *text, int length) {
    if (words == NULL) return 0;
    size_t low = 0, high = stop_word_count(words);
    while (low < high) {
        size_t middle = (low + high) / 2;
        int order = strncmp(words[middle], text, (size_t)length);
        if (order == 0) order = words[middle][length] == '\0' ? 0 : 1;
        if (order == 0) return 1;
        if (order < 0) low = middle + 1;
        else high = middle;
    }
    return 0;
}

static int snowball_create(void *userData, const char **arguments, int count, Fts5Tokenizer **out) {
    fts5_api *api = (fts5_api *)userData;
    *out = NULL;
    if (count < 1) return SQLITE_ERROR;
    SnowballTokenizer *tokenizer = calloc(1, sizeof(SnowballTokenizer));
    if (tokenizer == NULL) return SQLITE_NOMEM;
    // An optional "stopwords <list>" pair follows the algorithm.
    if (count >= 3 && strcmp(arguments[1], "stopwords") == 0) {
        tokenizer->stopWords = stop_words_named(arguments[2]);
        if (tokenizer->stopWords == NULL) {
            free(tokenizer);
            return SQLITE_ERROR;
        }
        arguments += 2;
        count -= 2;
    }
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
    // A stop word is neither indexed nor required by a query, except as a prefix (`on*`),
    // which stands for the longer words it begins.
    if (!(stem->tokenizeFlags & FTS5_TOKENIZE_PREFIX) && is_stop_word(stem->stopWords, text, length)) return SQLITE_OK;
    const sb_symbol *stemmed = sb_stemmer_stem(stem->stemmer, (const sb_symbol *)text, length);
    if (stemmed == NULL) return SQLITE_NOMEM;
    return stem->token(stem->context, flags, (const char *)stemmed, sb_stemmer_length(stem->stemmer), start, end);
}

static int snowball_tokenize(
    Fts5Tokenizer *instance, void *context, int flags, const char *text, int length,
    int (*token)(void *, int, const char *, int, int, int)) {
    SnowballTokenizer *tokenizer = (SnowballTokenizer *)instance;
    StemContext stem = {context, token, tokenizer->stemmer, tokenizer->stopWords, flags};
    return tokenizer->parent.xTokenize(tokenizer->parentInstance, &stem, flags, text, length, snowball_stem);
}

// MARK: quire_rank

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
    int rc = api->xCreateTokenizer(api, "quire_snowball", (void *)api, &methods, NULL);
    if (rc == SQLITE_OK) rc = api->xCreateFunction(api, "quire_rank", NULL, quire_rank, NULL);
    return rc;
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
