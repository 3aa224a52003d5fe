#!/usr/bin/env python3
"""Estimates what a body encoding saves in bytes on disk, against the canonical JSON text
(Benchmarks/STORAGE_LAYOUT.md, "Body encoding and size").

Reads a dataset of JSON Lines (one document a line, its ID in "_id", as `quire fixture generate`
and `quire db export` write), and writes four SQLite files in Quire's row layout (8 KB pages,
WAL, the rows of `docs_<id>` with a unique key index), differing only in the body column:

- json: the canonical JSON text (sorted keys, no white space), what Quire stored before schema
  version 7;
- json-bare-keys: the same text with every identifier key written without its quotes, what Quire
  stores from schema version 7 (`quire_body.h`);
- binary: a compact tagged encoding of the same value (a type byte, varint lengths, integers as
  zigzag varints, reals as 8 bytes), keys written out as text;
- binary-shared-keys: as binary, with each key written as a varint index into one table of the
  keys of the whole file (the table itself counted once), as encodings with shared keys do.

Prints, for each: the mean body size, the file size after a checkpoint, and bytes on disk per
byte of JSON.

    python3 Benchmarks/body_size.py people.jsonl [hotels.jsonl ...]
"""
import json
import os
import re
import sqlite3
import struct
import sys
import tempfile


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode(value, keys):
    """The tagged encoding; `keys` maps a key to its index, or is None to write keys as text."""
    if value is None:
        return b"\x00"
    if value is True:
        return b"\x01"
    if value is False:
        return b"\x02"
    if isinstance(value, int):
        return b"\x03" + varint((value << 1) ^ (value >> 63))
    if isinstance(value, float):
        return b"\x04" + struct.pack("<d", value)
    if isinstance(value, str):
        data = value.encode()
        return b"\x05" + varint(len(data)) + data
    if isinstance(value, list):
        return b"\x06" + varint(len(value)) + b"".join(encode(item, keys) for item in value)
    out = bytearray(b"\x07" + varint(len(value)))
    for key in sorted(value):
        if keys is None:
            data = key.encode()
            out += varint(len(data)) + data
        else:
            out += varint(keys.setdefault(key, len(keys)))
        out += encode(value[key], keys)
    return bytes(out)


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def bare_keys(value):
    """Compact JSON with sorted keys, identifier keys without their quotes."""
    if isinstance(value, dict):
        return "{" + ",".join(
            (key if IDENTIFIER.fullmatch(key) else json.dumps(key, ensure_ascii=False)) + ":" + bare_keys(value[key])
            for key in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(bare_keys(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def build(path, rows):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size=8192")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(
        "CREATE TABLE docs (sequence INTEGER PRIMARY KEY, key TEXT NOT NULL, flags INTEGER NOT NULL DEFAULT 0,"
        " revid BLOB NOT NULL, expiration INTEGER, history TEXT NOT NULL DEFAULT '', body BLOB NOT NULL)")
    db.execute("CREATE UNIQUE INDEX docs_key ON docs (key)")
    db.execute("BEGIN")
    db.executemany("INSERT INTO docs (key, revid, body) VALUES (?, randomblob(21), ?)", rows)
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return os.path.getsize(path)


def main():
    directory = tempfile.mkdtemp()
    for source in sys.argv[1:]:
        documents = []
        with open(source) as lines:
            for line in lines:
                document = json.loads(line)
                documents.append((str(document.pop("_id")), document))
        texts = [(key, json.dumps(doc, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode())
                 for key, doc in documents]
        json_bytes = sum(len(text) for _, text in texts)
        shared = {}
        encodings = {
            "json": texts,
            "json-bare-keys": [(key, bare_keys(doc).encode()) for key, doc in documents],
            "binary": [(key, encode(doc, None)) for key, doc in documents],
            "binary-shared-keys": [(key, encode(doc, shared)) for key, doc in documents],
        }
        table = sum(len(varint(len(k.encode()))) + len(k.encode()) for k in shared)
        print(f"{os.path.basename(source)}: {len(documents)} documents, {json_bytes / len(documents):.1f} B of JSON each, "
              f"{len(shared)} distinct keys ({table} B as a table)")
        for name, rows in encodings.items():
            size = build(os.path.join(directory, name + ".db"), rows) + (table if name == "binary-shared-keys" else 0)
            mean = sum(len(body) for _, body in rows) / len(rows)
            print(f"  {name:20} body {mean:7.1f} B   file {size / 1e6:6.2f} MB   {size / json_bytes:.3f} per JSON byte")


if __name__ == "__main__":
    main()
