#!/usr/bin/env bash
# Runs every benchmark and writes Benchmarks/RESULTS.md and Benchmarks/ratios.svg.
#
#   Benchmarks/run-all.sh                      # everything, full sizes (about 10 minutes)
#   QUIRE_BENCH_SCALE=0.05 Benchmarks/run-all.sh   # a quick smoke run with 5% of the documents
#   Benchmarks/run-all.sh --filter 'read.*'    # extra arguments go to `swift package benchmark`
#
# The benchmark package pins ordo-one/benchmark 1.38.1 with only its MallocInterposer trait, so
# nothing needs ordo-one/swift-runtime-interposer; set BENCHMARK_DISABLE_MALLOC_INTERPOSER=1 to
# build without the interposer as well (allocation counts then read as missing).
set -euo pipefail
cd "$(dirname "$0")"

output=.build/benchmark-results
rm -rf "$output"
mkdir -p "$output"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

swift package --allow-writing-to-package-directory benchmark --format histogramPercentiles --path "$output" \
    --no-progress "$@"

swift run -c release results-page "$output" . \
    "Swift=$(swift --version 2>&1 | head -n 1)" \
    "SQLite=$(pkg-config --modversion sqlite3 2>/dev/null || echo unknown)" \
    "Commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "Document scale (QUIRE_BENCH_SCALE)=${QUIRE_BENCH_SCALE:-1}" \
    "Load average when the run started (1, 5, 15 min)=$load_before"
echo "Wrote $(pwd)/RESULTS.md and $(pwd)/ratios.svg"
