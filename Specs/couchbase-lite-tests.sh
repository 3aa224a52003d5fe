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
    echo "# (A + in a file name is _ in the class: QueryTest_Collection is QueryTest+Collection.swift)."
    echo "# Written by Specs/couchbase-lite-tests.sh; Specs/COVERAGE.md is generated from it."
    echo "# Left out, Enterprise-only: DatabaseEncryptionTest, MultipeerReplicatorTest, PredictiveQueryTest(+CoreML),"
    echo "# TLSIdentityTest, VectorSearchTest(+Lazy). SubdocumentTest, ConflictTest, LogTest, SampleCodeTest and the"
    echo "# 2.x *LegacyTest classes are no longer in Swift/Tests at this commit."
    for file in ArrayTest CodableTest CollectionTest DatabaseTest DateTimeQueryFunctionTest DictionaryTest \
        DocumentExpirationTest DocumentTest FragmentTest LogSinkTest NotificationTest PartialIndexTest \
        PredicateQueryTest PublisherTest QueryTest QueryTest+Collection ReplicatorTest ReplicatorTest+Collection \
        ReplicatorTest+CustomConflict ReplicatorTest+PendingDocIds UnnestArrayTest URLEndpointListenerTest \
        URLEndpointListenerTest+Collection; do
        class=$(echo "$file" | tr + _)
        git -C "$repo" show "$commit:Swift/Tests/$file.swift" |
            sed -n -E 's/^[[:space:]]*func (test[A-Za-z0-9_]*)\(\).*/\1/p' | sort -u | sed "s/^/$class./"
    done
} >"$out"
