#!/usr/bin/env python3
"""Compares document-table layouts for Quire's `docs_<id>` tables (issue 14).

Runs with the system's SQLite through Python's sqlite3 module; the same pragmas as Quire's
writer (WAL, synchronous=NORMAL, temp_store=MEMORY). For each body size it builds one file per
layout in a fresh directory and times: insert of every document in one transaction; point reads
of one property by key; a walk of the whole table in sequence order (what `_changes` does);
a copy of the file opened and read once (a fixture's install); an update of a fifth of the
documents (a new sequence, so the row moves where the sequence is the rowid); a query on one property without an index, the index's creation and the same query
with it; the file's size after the insert (checkpointed), relative to a plain rowid table of key
and body (the baseline of the 1.15x target) and per byte of JSON, and after the updates.

    python3 Benchmarks/storage_layout.py [documents-per-size] [repeats]
"""
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

COUNT = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
READS = 20000
WORDS = ("harbor view garden quiet breakfast pool spa suite family river old town market station "
         "museum bridge terrace lake mountain forest coast cliff square tower castle cathedral").split()
STATES = ["WA", "OR", "CA", "NV", "ID", "MT", "UT", "AZ", "NM", "CO"]


def body(index, size, rng):
    doc = {"type": "hotel", "id": index, "name": " ".join(rng.choice(WORDS) for _ in range(3)),
           "address": {"city": rng.choice(WORDS).title(), "state": rng.choice(STATES)},
           "reviews": []}
    text = json.dumps(doc, separators=(",", ":"), sort_keys=True)
    while len(text) < size:
        doc["reviews"].append({"author": rng.choice(WORDS).title(), "rating": rng.randint(1, 5),
                               "content": " ".join(rng.choice(WORDS) for _ in range(12))})
        text = json.dumps(doc, separators=(",", ":"), sort_keys=True)
    return text


COMMON_INDEXES = "CREATE INDEX {t}_expiration ON {t} (expiration) WHERE expiration IS NOT NULL;"
LAYOUTS = {
    # Today's: WITHOUT ROWID, the key as primary key, the body inline.
    "without-rowid": """
        CREATE TABLE {t} (key TEXT PRIMARY KEY NOT NULL, sequence INTEGER NOT NULL, flags INTEGER NOT NULL DEFAULT 0,
            revid TEXT NOT NULL, body TEXT NOT NULL, expiration INTEGER, history TEXT NOT NULL DEFAULT '') WITHOUT ROWID;
        CREATE UNIQUE INDEX {t}_sequence ON {t} (sequence);""" + COMMON_INDEXES,
    # An ordinary rowid table with a unique key, and the sequence in an index of its own.
    "rowid-key-unique": """
        CREATE TABLE {t} (key TEXT NOT NULL UNIQUE, sequence INTEGER NOT NULL, flags INTEGER NOT NULL DEFAULT 0,
            revid TEXT NOT NULL, body TEXT NOT NULL, expiration INTEGER, history TEXT NOT NULL DEFAULT '');
        CREATE UNIQUE INDEX {t}_sequence ON {t} (sequence);""" + COMMON_INDEXES,
    # The sequence is the rowid; the key has a unique index.
    "sequence-rowid": """
        CREATE TABLE {t} (sequence INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, flags INTEGER NOT NULL DEFAULT 0,
            revid TEXT NOT NULL, body TEXT NOT NULL, expiration INTEGER, history TEXT NOT NULL DEFAULT '');""" + COMMON_INDEXES,
    # As above, with the body in a table of its own (the metadata table stays small).
    "sequence-rowid-split-body": """
        CREATE TABLE {t} (sequence INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, flags INTEGER NOT NULL DEFAULT 0,
            revid TEXT NOT NULL, expiration INTEGER, history TEXT NOT NULL DEFAULT '');
        CREATE TABLE {t}_body (sequence INTEGER PRIMARY KEY, body TEXT NOT NULL);""" + COMMON_INDEXES,
}


def connect(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA temp_store=MEMORY")
    return db


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def run_layout(name, docs, directory):
    path = os.path.join(directory, name + ".db")
    db = connect(path)
    t = "docs_1"
    db.executescript(LAYOUTS[name].format(t=t))
    split = name.endswith("split-body")
    rng = random.Random(7)
    result = {}

    def insert():
        db.execute("BEGIN")
        for sequence, (key, text) in enumerate(docs, 1):
            if split:
                db.execute(f"INSERT INTO {t} (key, sequence, revid) VALUES (?, ?, ?)", (key, sequence, "1-abc"))
                db.execute(f"INSERT INTO {t}_body (sequence, body) VALUES (?, ?)", (sequence, text))
            else:
                db.execute(f"INSERT INTO {t} (key, sequence, revid, body) VALUES (?, ?, ?, ?)",
                           (key, sequence, "1-abc", text))
        db.execute("COMMIT")
    result["insert"] = timed(insert)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    result["size"] = os.path.getsize(path)
    copy = os.path.join(directory, "copy.db")

    def install():
        shutil.copyfile(path, copy)
        other = connect(copy)
        other.execute(f"SELECT count(*) FROM {t} WHERE key = ?", (docs[0][0],)).fetchone()
        other.close()
    result["copy-open"] = timed(install)

    # The reads run inside SQLite (a temporary table of random keys, joined in its order), so
    # the figure is SQLite's lookups, not Python's per-statement cost.
    db.execute("CREATE TEMP TABLE probe (key TEXT NOT NULL)")
    db.executemany("INSERT INTO probe (key) VALUES (?)", [(rng.choice(docs)[0],) for _ in range(READS)])
    read_sql = (f"SELECT count(b.body ->> '$.address.state') FROM probe p CROSS JOIN {t} d ON d.key = p.key "
                f"CROSS JOIN {t}_body b ON b.sequence = d.sequence"
                if split else
                f"SELECT count(d.body ->> '$.address.state') FROM probe p CROSS JOIN {t} d ON d.key = p.key")
    result["point-read"] = timed(lambda: db.execute(read_sql).fetchone())
    result["scan"] = timed(lambda: db.execute(
        f"SELECT key, sequence, flags, revid FROM {t} WHERE sequence > 0 ORDER BY sequence").fetchall())

    updated = rng.sample(range(len(docs)), len(docs) // 5)

    def update():
        db.execute("BEGIN")
        sequence = len(docs)
        for index in updated:
            sequence += 1
            key, text = docs[index]
            if split:
                old = db.execute(f"SELECT sequence FROM {t} WHERE key = ?", (key,)).fetchone()[0]
                db.execute(f"DELETE FROM {t}_body WHERE sequence = ?", (old,))
                db.execute(f"UPDATE {t} SET sequence = ?, revid = ? WHERE key = ?", (sequence, "2-def", key))
                db.execute(f"INSERT INTO {t}_body (sequence, body) VALUES (?, ?)", (sequence, text))
            else:
                db.execute(f"INSERT INTO {t} (key, sequence, revid, body) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (key) DO UPDATE SET sequence = excluded.sequence, revid = excluded.revid, "
                           "body = excluded.body", (key, sequence, "2-def", text))
        db.execute("COMMIT")
    result["update-20%"] = timed(update)

    query = (f"SELECT d.key FROM {t} d JOIN {t}_body b ON b.sequence = d.sequence WHERE b.body ->> '$.address.state' = 'WA' AND d.flags & 1 = 0"
             if split else f"SELECT key FROM {t} WHERE body ->> '$.address.state' = 'WA' AND flags & 1 = 0")
    result["query"] = timed(lambda: db.execute(query).fetchall())
    index_sql = (f"CREATE INDEX {t}_state ON {t}_body (body ->> '$.address.state')" if split
                 else f"CREATE INDEX {t}_state ON {t} (body ->> '$.address.state') WHERE flags & 1 = 0")
    result["create-index"] = timed(lambda: db.execute(index_sql))
    result["query-indexed"] = timed(lambda: db.execute(query).fetchall())
    db.execute(f"DROP INDEX {t}_state")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    result["size-updated"] = os.path.getsize(path)
    return result


def plain_size(docs, directory):
    path = os.path.join(directory, "plain.db")
    db = connect(path)
    db.execute("CREATE TABLE docs (key TEXT NOT NULL UNIQUE, body TEXT NOT NULL)")
    db.execute("BEGIN")
    db.executemany("INSERT INTO docs (key, body) VALUES (?, ?)", docs)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return os.path.getsize(path)


def main():
    print(f"SQLite {sqlite3.sqlite_version}, {COUNT} documents per size, median of {REPEATS} runs\n")
    for size in (300, 1200, 5000):
        rng = random.Random(size)
        docs = [(f"doc-{i:07d}-{rng.randrange(1 << 30):08x}", body(i, size, rng)) for i in range(COUNT)]
        rng.shuffle(docs)
        json_bytes = sum(len(text) for _, text in docs)
        runs = {name: [] for name in LAYOUTS}
        plain = None
        for _ in range(REPEATS):
            for name in LAYOUTS:
                with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR", "/tmp")) as directory:
                    runs[name].append(run_layout(name, docs, directory))
            if plain is None:
                with tempfile.TemporaryDirectory() as directory:
                    plain = plain_size(docs, directory)
        print(f"### {size} B per document ({json_bytes / COUNT:.0f} B average, {json_bytes / 1e6:.1f} MB of JSON; "
              f"plain rowid table of key and body: {plain / 1e6:.2f} MB)\n")
        columns = ["insert", "point-read", "scan", "update-20%", "query", "create-index", "query-indexed", "copy-open"]
        print("| Layout | " + " | ".join(columns) + " | size | ÷ plain | bytes / JSON byte | size after the updates |")
        print("|---|" + "--:|" * (len(columns) + 4))
        for name in LAYOUTS:
            med = {c: statistics.median(r[c] for r in runs[name]) for c in columns}
            size_bytes = runs[name][0]["size"]
            cells = [f"{med[c] * 1000:.1f} ms" if med[c] < 0.01 else f"{med[c] * 1000:.0f} ms" for c in columns]
            print(f"| {name} | " + " | ".join(cells) +
                  f" | {size_bytes / 1e6:.2f} MB | {size_bytes / plain:.2f} | {size_bytes / json_bytes:.2f}"
                  f" | {runs[name][0]['size-updated'] / 1e6:.2f} MB |")
        print()


if __name__ == "__main__":
    main()
