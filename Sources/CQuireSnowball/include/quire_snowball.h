#ifndef QUIRE_SNOWBALL_H
#define QUIRE_SNOWBALL_H

/// Registers, as an SQLite auto-extension, the FTS5 tokenizer `quire_snowball` on every
/// database connection opened afterwards in the process. Its arguments are a Snowball
/// algorithm name (`spanish`, `french` ...) followed by the arguments of the `unicode61`
/// tokenizer it wraps (`remove_diacritics 2`): unicode61 splits and folds the text, Snowball
/// stems each token. Returns an SQLite result code; calling it again does nothing.
int quire_snowball_register(void);

/// Whether libstemmer has the algorithm `name` for UTF-8 text.
int quire_snowball_has_algorithm(const char *name);

#endif
