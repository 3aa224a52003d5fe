#!/usr/bin/env bash
# Runs every benchmark and writes Benchmarks/RESULTS.md and Benchmarks/ratios.svg.
#
#   Benchmarks/run-all.sh                      # everything, full sizes (about 10 minutes)
#   QUIRE_BENCH_SCALE=0.05 Benchmarks/run-all.sh   # a quick smoke run with 5% of the documents
#   Benchmarks/run-all.sh --filter 'read.*'    # extra arguments go to `swift package benchmark`
#   Benchmarks/run-all.sh --page-only          # the page again from the last run's export
#                                              # (after profile.sh or editing profile-notes.md)
#   QUIRE_BENCH_SCRATCH=.build-other Benchmarks/run-all.sh   # build in another scratch folder
#
# The benchmark package pins ordo-one/benchmark 1.38.1 with only its MallocInterposer trait, so
# nothing needs ordo-one/swift-runtime-interposer; set BENCHMARK_DISABLE_MALLOC_INTERPOSER=1 to
# build without the interposer as well (allocation counts then read as missing).
set -euo pipefail
cd "$(dirname "$0")"

scratch=${QUIRE_BENCH_SCRATCH:-.build}
output=$scratch/benchmark-results
notes_file=$output/page-notes

if [ "${1:-}" != "--page-only" ]; then
    rm -rf "$output"
    mkdir -p "$output"
    load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

    swift package --scratch-path "$scratch" --allow-writing-to-package-directory benchmark --target QuireBenchmarks \
        --format histogramPercentiles --path "$output" --no-progress "$@"

    load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
    # What describes the run, one key=value a line, kept with the export for --page-only.
    {
        echo "Swift=$(swift --version 2>&1 | head -n 1)"
        echo "SQLite=$(pkg-config --modversion sqlite3 2>/dev/null || echo unknown)"
        echo "Commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
        echo "Document scale (QUIRE_BENCH_SCALE)=${QUIRE_BENCH_SCALE:-1}"
        echo "Load average when the run started (1, 5, 15 min)=$load_before"
        echo "Load average when the run ended (1, 5, 15 min)=$load_after"
    } >"$notes_file"
fi

[ -f "$notes_file" ] || { echo "no $notes_file: run without --page-only first" >&2; exit 1; }
notes=()
while IFS= read -r line; do notes+=("$line"); done <"$notes_file"
swift run -c release --scratch-path "$scratch" results-page "$output" . "${notes[@]}"
echo "Wrote $(pwd)/RESULTS.md and $(pwd)/ratios.svg"
