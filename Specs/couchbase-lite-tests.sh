#!/bin/sh
# Writes Specs/couchbase-lite-tests.txt: the names (only) of Couchbase Lite's Swift tests of
# local behaviour, one `Class.testName` a line, from a clone of couchbase-lite-ios.
#   Specs/couchbase-lite-tests.sh /path/to/couchbase-lite-ios[.git] [commit]
set -eu
repo=${1:?usage: $0 REPO [COMMIT]}
commit=$(git -C "$repo" rev-parse "${2:-HEAD}")
out=$(dirname "$0")/couchbase-lite-tests.txt
{
    echo "# Couchbase Lite's Swift tests of local behaviour, by class: names only, no code."
    echo "# couchbase/couchbase-lite-ios commit $commit, Swift/Tests/<Class>.swift"
    echo "# (QueryTest_Collection is the class in QueryTest+Collection.swift)."
    echo "# Written by Specs/couchbase-lite-tests.sh; Specs/COVERAGE.md is generated from it."
    for file in ArrayTest CollectionTest DatabaseTest DictionaryTest DocumentExpirationTest DocumentTest \
        PartialIndexTest QueryTest QueryTest+Collection UnnestArrayTest; do
        class=$(echo "$file" | tr + _)
        git -C "$repo" show "$commit:Swift/Tests/$file.swift" |
            sed -n -E 's/^[[:space:]]*func (test[A-Za-z0-9_]*)\(\).*/\1/p' | sort -u | sed "s/^/$class./"
    done
} >"$out"
