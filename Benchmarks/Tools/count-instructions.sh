#!/bin/bash
# Counts instructions and mallocs per element (pumping) or per subscription (creating) with callgrind,
# for machines whose kernel offers no perf counters to package-benchmark.
#
# Usage: Benchmarks/Tools/count-instructions.sh [regex matched against "scenario (flavour)"]
#
# Each workload runs twice under callgrind, with n and n + count elements; the difference divided by
# count is the cost of one element, without process start-up, set-up, or first-use costs (metadata
# instantiation, lazy globals). Instruction counts do not depend on the machine's load.
#
# CONFIGURATION=debug counts a debug build (the library's debug-only checks included; default release).
#
# COLLECT_ONLY=<function name pattern> counts only inside the functions it matches (callgrind's
# --toggle-collect; Swift names are matched mangled, so use wildcards: '*measuredDispose*').
set -euo pipefail

package=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=callgrind-counts.sh
source "$package/Tools/callgrind-counts.sh"
filter=${1:-.}
configuration=${CONFIGURATION:-release}
swift build -c "$configuration" --package-path "$package" --product RxInstructionCount >&2
binary="$package/.build/$configuration/RxInstructionCount"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Prints "<instructions> <malloc calls>" of one run.
measure() {
    local output="$work/callgrind.out"
    # valgrind 3.19 crashes when the Swift concurrency runtime starts a worker thread (AsyncStream):
    # such a workload prints no figures rather than stopping the script.
    valgrind --tool=callgrind ${COLLECT_ONLY:+"--toggle-collect=$COLLECT_ONLY"} --callgrind-out-file="$output" \
        "$binary" "$1" "$2" </dev/null >/dev/null \
        2>"$work/log" || return 0
    callgrind_counts "$work/log" "$output"
}

echo "| workload | flavour | instructions / unit | mallocs / unit |"
echo "|---|---|---:|---:|"
"$binary" list | while IFS=$'\t' read -r index count scenario flavour; do
    [[ "$scenario ($flavour)" =~ $filter ]] || continue
    base=$((count / 10))
    read -r instructions1 mallocs1 < <(measure "$index" "$base") || true
    read -r instructions2 mallocs2 < <(measure "$index" $((base + count))) || true
    if [[ -z "${instructions1:-}" || -z "${instructions2:-}" ]]; then
        printf '| %s | %s | n/a (valgrind failed) | n/a |\n' "$scenario" "$flavour"
        continue
    fi
    printf '| %s | %s | %s | %s |\n' "$scenario" "$flavour" \
        "$(awk -v a="$instructions1" -v b="$instructions2" -v n="$count" 'BEGIN { printf "%.0f", (b - a) / n }')" \
        "$(awk -v a="$mallocs1" -v b="$mallocs2" -v n="$count" 'BEGIN { printf "%.2f", (b - a) / n }')"
done
