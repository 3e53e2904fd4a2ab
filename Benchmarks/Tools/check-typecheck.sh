#!/bin/bash
# What a user pays at build time: type-checks client code written in RxSwift's usual style
# (Benchmarks/TypeCheck: view models, view controllers binding Drivers and Signals, one-line chains)
# against swift-rx's debug modules, and compares the type checker's work with the checked-in figures
# in Benchmarks/Thresholds/typecheck.tsv.
#
# Usage: Benchmarks/Tools/check-typecheck.sh [--update] [--rxswift CHECKOUT]
#
# The figures are the compiler's own counters (`-stats-output-dir`), which do not depend on the
# machine or its load: constraint-solver scopes (the work of trying overloads: an added overload that
# the solver must try at every step shows here) and AST bytes allocated (a macro expanded at every call
# site shows here, as does a defaulted parameter more). A figure more than 5 % above its threshold
# fails; --update records the measured ones. Seconds are printed beside them, for reading only.
#
# --rxswift CHECKOUT also type-checks the same files against RxSwift 6, built from CHECKOUT (a clone of
# ReactiveX/RxSwift, never committed here): RxSwift and RxRelay with SwiftPM, and RxCocoa's portable
# half (its traits, Driver, Signal, ControlProperty and ControlEvent, bind(to:)) with swiftc, since
# RxSwift's package leaves RxCocoa out on Linux. Then each file is timed against both, alternately
# (A B A B, RUNS pairs, 3 by default), and the medians and their ratio are printed.
set -euo pipefail

tools=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$tools/../.." && pwd)
sources="$root/Benchmarks/TypeCheck"
file="$root/Benchmarks/Thresholds/typecheck.tsv"
update=false
rxswift=""
while (($# > 0)); do
    case "$1" in
        --update) update=true ;;
        --rxswift)
            rxswift=$(cd "$2" && pwd)
            shift
            ;;
        *)
            echo "usage: $0 [--update] [--rxswift CHECKOUT]" >&2
            exit 2
            ;;
    esac
    shift
done
tolerance=5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$sources/generate.sh" "$work/client"

echo "== building swift-rx's modules (debug)" >&2
swift build --package-path "$root" --target RxCocoa >&2
modules="$root/.build/debug/Modules"
[[ -d "$modules" ]] || modules="$root/.build/debug"
swiftrx_flags=(-I "$modules")

typecheck() { # typecheck FILE FLAGS...: exits non-zero if the file does not type-check
    local source=$1
    shift
    swiftc -typecheck -swift-version 5 "$@" "$source"
}

# One row per client file: file, constraint scopes, AST bytes, seconds.
printf 'file\tconstraint scopes\tAST bytes\tseconds\n' >"$work/measured.tsv"
for source in "$work"/client/*.swift; do
    name=$(basename "$source" .swift)
    stats="$work/stats-$name"
    mkdir -p "$stats"
    start=$(date +%s.%N)
    typecheck "$source" "${swiftrx_flags[@]}" -Xfrontend -stats-output-dir -Xfrontend "$stats"
    end=$(date +%s.%N)
    python3 - "$stats" "$name" "$start" "$end" >>"$work/measured.tsv" <<'EOF'
import glob, json, sys
stats = json.load(open(glob.glob(sys.argv[1] + '/*.json')[0]))
print('%s\t%d\t%d\t%.2f' % (sys.argv[2], stats['Sema.NumConstraintScopes'], stats['AST.NumASTBytesAllocated'],
                            float(sys.argv[4]) - float(sys.argv[3])))
EOF
done
cat "$work/measured.tsv"

status=0
if $update; then
    cut -f1-3 "$work/measured.tsv" >"$file"
    echo "recorded in $file"
else
    # Compare each measured figure with its threshold.
    awk -F '\t' -v tolerance="$tolerance" '
        NR == FNR { if (FNR > 1) { scopes[$1] = $2; bytes[$1] = $3 }; next }
        FNR == 1 { next }
        !($1 in scopes) { printf "no threshold for %s: record it with --update\n", $1; failed = 1; next }
        {
            split("constraint scopes,AST bytes", names, ",")
            measured[1] = $2; measured[2] = $3; limit[1] = scopes[$1]; limit[2] = bytes[$1]
            for (i = 1; i <= 2; i++) {
                change = (measured[i] - limit[i]) * 100 / limit[i]
                if (change > tolerance) {
                    printf "DEARER %s: %s %d against %d (+%.1f %%)\n", $1, names[i], measured[i], limit[i], change
                    failed = 1
                } else if (change < -tolerance) {
                    printf "cheaper %s: %s %d against %d (%.1f %%): record it with --update\n", $1, names[i], measured[i], limit[i], change
                }
            }
        }
        END { exit failed }' "$file" "$work/measured.tsv" || status=1
    ((status == 0)) && echo "type-checking is within $tolerance % of $file"
fi

if [[ -n "$rxswift" ]]; then
    echo "== building RxSwift 6 from $rxswift (debug)" >&2
    swift build --package-path "$rxswift" --target RxRelay >&2
    rxmodules="$rxswift/.build/debug/Modules"
    [[ -d "$rxmodules" ]] || rxmodules="$rxswift/.build/debug"
    mkdir -p "$work/rxcocoa"
    # RxCocoa's files that build without UIKit or AppKit.
    swiftc -emit-module -module-name RxCocoa -swift-version 5 -parse-as-library -I "$rxmodules" \
        -emit-module-path "$work/rxcocoa/RxCocoa.swiftmodule" \
        "$rxswift"/RxCocoa/Traits/*.swift "$rxswift"/RxCocoa/Traits/*/*.swift \
        "$rxswift/RxCocoa/Common/Observable+Bind.swift" "$rxswift/RxCocoa/Common/Infallible+Bind.swift" \
        "$rxswift/RxCocoa/RxCocoa.swift" "$rxswift/RxCocoa/Foundation/NotificationCenter+Rx.swift" \
        "$rxswift/RxCocoa/Foundation/URLSession+Rx.swift"
    rxswift_flags=(-I "$rxmodules" -I "$work/rxcocoa")
    runs=${RUNS:-3}
    printf '\n| client file | swift-rx (s) | RxSwift 6 (s) | swift-rx / RxSwift |\n|---|---:|---:|---:|\n'
    for source in "$work"/client/*.swift; do
        for ((run = 0; run < runs; run++)); do
            for library in swiftrx rxswift; do
                if [[ $library == swiftrx ]]; then flags=("${swiftrx_flags[@]}"); else flags=("${rxswift_flags[@]}"); fi
                start=$(date +%s.%N)
                typecheck "$source" "${flags[@]}"
                end=$(date +%s.%N)
                echo "$library $start $end" >>"$work/times-$(basename "$source")"
            done
        done
        python3 - "$work/times-$(basename "$source")" "$(basename "$source" .swift)" <<'EOF'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    library, start, end = line.split()
    times.setdefault(library, []).append(float(end) - float(start))
a, b = statistics.median(times['swiftrx']), statistics.median(times['rxswift'])
print('| %s | %.2f | %.2f | %.2f |' % (sys.argv[2], a, b, a / b))
EOF
    done
fi
exit $status
