#ifndef QUIRE_SNOWBALL_H
#define QUIRE_SNOWBALL_H

/// Registers, as an SQLite auto-extension, the FTS5 tokenizer `quire_snowball` and the FTS5
/// ranking function `quire_rank` on every database connection opened afterwards in the
/// process. The tokenizer's arguments are a Snowball algorithm name (`spanish`, `french` ...),
/// optionally `stopwords en` (drop Snowball's English stop words, except in prefix queries),
/// then the arguments of the `unicode61` tokenizer it wraps (`remove_diacritics 2`):
/// unicode61 splits and folds the text, Snowball stems each token. `quire_rank` is Couchbase
/// Lite's relevance (each phrase's hits in the row over its hits in all rows, summed), negated
/// as FTS5's rank column orders. Returns an SQLite result code; calling it again does nothing.
int quire_snowball_register(void);

/// Whether libstemmer has the algorithm `name` for UTF-8 text.
int quire_snowball_has_algorithm(const char *name);

#endif
