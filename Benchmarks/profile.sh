#!/usr/bin/env bash
# Profiles benchmarks with callgrind and writes Benchmarks/PROFILE.md: instructions by
# function group (SQLite, allocation, JSON parsing, result building...) for Quire and its
# baselines, with the explanations in Benchmarks/profile-notes.md. RESULTS.md includes it
# under "Where the time goes" the next time results-page runs.
#
#   Benchmarks/profile.sh                          # the storage workloads (the list below)
#   Benchmarks/profile.sh query-indexed/Quire query-indexed/SQLite   # these again, the others kept
#   Benchmarks/profile.sh --summary-only           # PROFILE.md again from the last profiles
#                                                  # (after editing profile-notes.md)
#
# Instruction counts do not depend on the machine's load, so this can run next to other
# work. QUIRE_PROFILE_SCALE (default 0.1) sets the document counts, as QUIRE_BENCH_SCALE does
# for the benchmarks: callgrind runs programs about 50 times slower. QUIRE_BENCH_SCRATCH names
# the build folder, as for run-all.sh.
set -euo pipefail
cd "$(dirname "$0")"

scratch=${QUIRE_BENCH_SCRATCH:-.build}
output=$scratch/profiles
summary_only=false
if [ "${1:-}" = "--summary-only" ]; then
    summary_only=true
    shift
fi
benchmarks=("$@")
named=${#benchmarks[@]}
if [ "$named" -eq 0 ]; then
    benchmarks=(
        batch-save/Quire batch-save/SQLite
        transaction-saves/Quire transaction-saves/SQLite transaction-saves/GRDB
        read/Quire read/SQLite read-2-threads/Quire
        batch-save-hotels/Quire batch-save-hotels/SQLite batch-save-hotels/GRDB
        read-hotels/Quire read-hotels/SQLite
        query/Quire query/SQLite query/GRDB
        create-index/Quire create-index/SQLite create-index/GRDB
        query-indexed/Quire query-indexed/SQLite query-indexed/GRDB
        query-hotels/Quire query-hotels/SQLite query-hotels/GRDB
        create-index-hotels/Quire create-index-hotels/SQLite create-index-hotels/GRDB
        query-hotels-indexed/Quire query-hotels-indexed/SQLite query-hotels-indexed/GRDB
        full-text/Quire full-text/SQLite full-text/GRDB
        fixture-build/Quire fixture-build/SQLite
        fixture-install/Quire fixture-install/SQLite
        fixture-build-hotels/Quire fixture-build-hotels/SQLite
        fixture-install-hotels/Quire fixture-install-hotels/SQLite
    )
fi

if ! $summary_only; then
    swift build -c release --scratch-path "$scratch" --product bench-probe
    swift build -c release --scratch-path "$scratch" --product profile-summary
    # The whole list starts afresh; named benchmarks replace their own profiles only.
    if [ "$named" -eq 0 ]; then rm -rf "$output"; fi
    mkdir -p "$output"
    # Valgrind 3.19 cannot read the DWARF 5 debug information Swift emits; symbol names are all
    # the summary needs, so it profiles a copy without debug information.
    strip --strip-debug -o "$output/bench-probe" "$scratch/release/bench-probe"

    for benchmark in "${benchmarks[@]}"; do
        name=${benchmark//\//_}
        QUIRE_BENCH_SCALE=${QUIRE_PROFILE_SCALE:-0.1} valgrind --tool=callgrind --toggle-collect='*RunC8measured*' \
            --callgrind-out-file="$output/$name.out" "$output/bench-probe" "$benchmark" 1 >"$output/$name.log" 2>&1
        callgrind_annotate --inclusive=no --threshold=100 "$output/$name.out" | swift demangle --simplified >"$output/$name.txt"
        echo "profiled $benchmark: $(grep 'PROGRAM TOTALS' "$output/$name.txt")"
    done
    echo "${QUIRE_PROFILE_SCALE:-0.1}" >"$output/scale"
    git rev-parse --short HEAD >"$output/commit" 2>/dev/null || echo unknown >"$output/commit"
fi

"$scratch/release/profile-summary" "$output" profile-notes.md >PROFILE.md.new
{
    echo "Instructions counted by \`valgrind --tool=callgrind\` in the measured part of one iteration"
    echo "of a build of \`$(cat "$output/commit" 2>/dev/null || echo unknown)\`,"
    echo "with the document counts scaled by $(cat "$output/scale" 2>/dev/null || echo 0.1) (the titles give the full sizes), summed by"
    echo "function group (\`Benchmarks/profile.sh\`; self cost: a function's own instructions, not its"
    echo "callees'). Counts repeat from run to run;"
    echo "time per instruction differs between groups (SQLite's page reads wait on memory more than"
    echo "Swift's string code), so shares explain a gap rather than measure it."
    echo
    cat PROFILE.md.new
} >PROFILE.md
rm PROFILE.md.new
echo "Wrote $(pwd)/PROFILE.md"
