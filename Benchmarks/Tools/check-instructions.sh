#!/bin/bash
# Compares callgrind's instruction and malloc counts with the checked-in ones in
# Benchmarks/Thresholds/instructions.tsv, and fails if any figure got dearer.
#
# Usage: Benchmarks/Tools/check-instructions.sh [--update] [--rxswift | regex matched against "scenario (flavour)"]
#
# Runs Benchmarks/Tools/count-instructions.sh (release, unless CONFIGURATION says otherwise) over the
# guarded workloads: swift-rx in every Pumping, Creating and Scaling scenario. Among them are RxSwift's
# 13 scenarios (its `Benchmarks` target: PublishSubject, MapFilter, FlatMaps, FlatMapLatest,
# CombineLatest and Drive, pumping and creating, named "(RxSwift's …)", and `subject → 2 subscribers`,
# its PublishSubjectPumpingTwoSubscriptions). Not guarded: the other libraries and the closure floor
# (not ours), Awaiting (valgrind cannot run the concurrency runtime) and Diffing (minutes under
# callgrind). --rxswift runs RxSwift's 13 scenarios only; a regex narrows the run otherwise (a row it
# leaves out is not checked), e.g. '^Scaling/'.
#
# A figure fails when it is more than 3 % above the checked-in one (instructions and mallocs per unit;
# mallocs also fail on any rise of 0.01 or more from none). A figure more than 1 % below is printed
# as an improvement: record it with --update, which writes the measured rows into the file (rows the
# run did not measure are kept) so that the next check compares with them. Exit status: 0 when nothing
# got dearer, 1 when something did or could not be measured.
#
# Instruction counts do not depend on the machine's load, so this runs beside other builds; the whole
# set takes about six minutes on the project's 2-core machine (valgrind runs each workload twice);
# RxSwift's scenarios alone (--rxswift) about ninety seconds.
set -euo pipefail

tools=$(cd "$(dirname "$0")" && pwd)
file="$tools/../Thresholds/instructions.tsv"
update=false
if [[ "${1:-}" == "--update" ]]; then
    update=true
    shift
fi
guarded='^(Pumping|Creating|Scaling)/.* \(swift-rx\)$'
rxswift="(RxSwift's [A-Za-z]+\\)|/subject → 2 subscribers) \\(swift-rx\\)$"
if [[ "${1:-}" == "--rxswift" ]]; then
    filter=$rxswift
else
    filter=${1:-$guarded}
fi
tolerance=3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The counter prints a Markdown table: | workload | flavour | instructions / unit | mallocs / unit |.
# Only the guarded rows are kept even when a wider regex is given.
# COUNTS_FROM=<file> reads a table the counter printed before instead of running it.
if [[ -n "${COUNTS_FROM:-}" ]]; then cat "$COUNTS_FROM"; else "$tools/count-instructions.sh" "$filter"; fi |
    GUARDED="$guarded" awk -F ' \\| ' '
    /^\| / && !/^\| workload / && !/^\|---/ {
        workload = $1; sub(/^\| /, "", workload)
        mallocs = $4; sub(/ \|$/, "", mallocs)
        if ((workload " (" $2 ")") !~ ENVIRON["GUARDED"]) next
        printf "%s\t%s\t%s\t%s\n", workload, $2, $3, mallocs
    }' >"$work/measured.tsv"

if [[ ! -s "$work/measured.tsv" ]]; then
    echo "no guarded workload matched '$filter'" >&2
    exit 1
fi

if $update; then
    {
        echo "# Instructions and mallocs per unit (element, subscription or member; see each scenario), counted"
        echo "# with callgrind by Benchmarks/Tools/count-instructions.sh in a ${CONFIGURATION:-release} build."
        echo "# Checked by Benchmarks/Tools/check-instructions.sh (fails more than $tolerance % above); rewritten"
        echo "# by its --update. Recorded at $(git -C "$tools" rev-parse --short HEAD) with $(swift --version 2>/dev/null | head -1 | sed 's/ (.*//')"
        echo "# and $(valgrind --version)."
        echo "# workload	flavour	instructions	mallocs"
        # Rows this run did not measure are kept, in their place; measured rows replace theirs.
        awk -F '\t' '
            FNR == NR { key = $1 "\t" $2; fresh[key] = $0; order[++n] = key; next }
            /^#/ { next }
            { key = $1 "\t" $2; if (key in fresh) { print fresh[key]; done[key] = 1 } else print }
            END { for (i = 1; i <= n; i++) if (!(order[i] in done)) print fresh[order[i]] }
        ' "$work/measured.tsv" "$([[ -f "$file" ]] && echo "$file" || echo /dev/null)"
    } >"$work/new.tsv"
    mv "$work/new.tsv" "$file"
    echo "wrote $(grep -vc '^#' "$file") rows to ${file#"$tools/../"}"
    exit 0
fi

[[ -f "$file" ]] || {
    echo "no $file: run with --update first" >&2
    exit 1
}
awk -F '\t' -v tolerance="$tolerance" '
    FNR == NR { if ($0 !~ /^#/) { recorded[$1 "\t" $2] = $3 "\t" $4 }; next }
    {
        key = $1 "\t" $2
        name = $1 " (" $2 ")"
        if (!(key in recorded)) { printf "new        %s: %s instructions, %s mallocs (not in the file)\n", name, $3, $4; next }
        split(recorded[key], old, "\t")
        if ($3 !~ /^[0-9]+$/) { printf "FAILED     %s: not measured (%s)\n", name, $3; failed = 1; next }
        instructions = $3 + 0; mallocs = $4 + 0; oldInstructions = old[1] + 0; oldMallocs = old[2] + 0
        change = oldInstructions > 0 ? 100 * (instructions - oldInstructions) / oldInstructions : 0
        dearer = change > tolerance
        mallocsDearer = mallocs > oldMallocs * (1 + tolerance / 100) + 0.005
        if (dearer || mallocsDearer) {
            printf "DEARER     %s: %d instructions (recorded %d, %+.1f %%), %.2f mallocs (recorded %.2f)\n", \
                name, instructions, oldInstructions, change, mallocs, oldMallocs
            failed = 1
        } else if (change < -1 || mallocs < oldMallocs - 0.005) {
            printf "improved   %s: %d instructions (recorded %d, %+.1f %%), %.2f mallocs (recorded %.2f)\n", \
                name, instructions, oldInstructions, change, mallocs, oldMallocs
            improved = 1
        } else {
            checked++
        }
    }
    END {
        printf "%d within %d %% of the recorded figures\n", checked, tolerance
        if (improved) print "figures improved: record them with Benchmarks/Tools/check-instructions.sh --update"
        if (failed) { print "FAILED: a figure is dearer than recorded (or was not measured)"; exit 1 }
    }
' "$file" "$work/measured.tsv"
