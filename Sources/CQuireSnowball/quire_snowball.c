// An FTS5 tokenizer that stems with Snowball (libstemmer), the stemmers Couchbase Lite's
// full-text search uses, over SQLite's own unicode61 tokenizer. Written against the FTS5
// tokenizer API of SQLite's documentation ("Custom Tokenizers").

#include "quire_snowball.h"
#include "quire_fts.h"

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

int quire_snowball_register(sqlite3 *db) {
    fts5_api *api = quire_fts5_api(db);
    // Without FTS5 there is nothing to register, and opening the connection must not fail.
    if (api == NULL) return SQLITE_OK;
    fts5_tokenizer methods = {snowball_create, snowball_delete, snowball_tokenize};
    return api->xCreateTokenizer(api, "quire_snowball", (void *)api, &methods, NULL);
}

int quire_snowball_has_algorithm(const char *name) {
    struct sb_stemmer *stemmer = sb_stemmer_new(name, "UTF_8");
    if (stemmer == NULL) return 0;
    sb_stemmer_delete(stemmer);
    return 1;
}
