#ifndef QUIRE_SNOWBALL_H
#define QUIRE_SNOWBALL_H

struct sqlite3;

/// Registers, on one database connection, the FTS5 tokenizer `quire_snowball`. Its arguments
/// are a Snowball algorithm name (`spanish`, `french` ...), optionally `stopwords en` (drop
/// Snowball's English stop words, except in prefix queries), then the arguments of the
/// `unicode61` tokenizer it wraps (`remove_diacritics 2`): unicode61 splits and folds the
/// text, Snowball stems each token. Returns an SQLite result code; a connection whose SQLite
/// has no FTS5 gets nothing and SQLITE_OK.
int quire_snowball_register(struct sqlite3 *db);

/// Whether libstemmer has the algorithm `name` for UTF-8 text.
int quire_snowball_has_algorithm(const char *name);

#endif
