#!/bin/bash
# Records or checks package-benchmark's static thresholds: the p90 wall clock and mallocs of every
# benchmark of the suite, one JSON file per benchmark in Benchmarks/Thresholds/. The tolerances are in
# Benchmarks/Benchmarks/RxBenchmarks/RxBenchmarks.swift (mallocs 16 per iteration, wall clock 10×).
#
# Usage: Benchmarks/Tools/thresholds.sh update [package-benchmark options, e.g. --filter 'Pumping/.*']
#        Benchmarks/Tools/thresholds.sh check  [package-benchmark options]
#
# `check` runs the suite and compares it with the files: exit status 0 when every figure is within
# its tolerance or better (improvements are listed: record them with `update`), non-zero when one is
# worse. `update` runs the suite and rewrites the files of the benchmarks it ran.
set -euo pipefail

package=$(cd "$(dirname "$0")/.." && pwd)
operation=${1:-}
shift || true

case "$operation" in
update)
    exec swift package --package-path "$package" --allow-writing-to-package-directory \
        benchmark thresholds update --path "$package/Thresholds" --no-progress "$@"
    ;;
check)
    # package-benchmark 1.38.1 writes a benchmark's file under its name with '/' and ' ' replaced by
    # '_', but looks it up under the name as it is. The files are laid out under the names it looks
    # for (the suite's names are the instruction counter's "scenario (flavour)").
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    swift build -c release --package-path "$package" --product RxInstructionCount >&2
    "$package/.build/release/RxInstructionCount" list | while IFS=$'\t' read -r _ _ scenario flavour; do
        name="$scenario ($flavour)"
        cleaned=${name//\//_}
        cleaned=${cleaned// /_}
        recorded="$package/Thresholds/RxBenchmarks.$cleaned.p90.json"
        [[ -f "$recorded" ]] || continue
        mkdir -p "$(dirname "$work/RxBenchmarks.$name.p90.json")"
        cp "$recorded" "$work/RxBenchmarks.$name.p90.json"
    done
    status=0
    swift package --package-path "$package" benchmark thresholds check --path "$work" --no-progress "$@" ||
        status=$?
    # 2: worse than a threshold; 4: only better (package-benchmark's exit codes).
    if ((status == 4)); then
        echo "Every figure is within its tolerance or better; record the better ones with: $0 update"
        exit 0
    fi
    exit "$status"
    ;;
*)
    echo "usage: $0 update|check [package-benchmark options]" >&2
    exit 64
    ;;
esac
