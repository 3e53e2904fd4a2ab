#!/usr/bin/env bash
# Counts the assertions of every test target under Tests/, so that moving, splitting or merging test
# files can be checked to lose none: run it before and after, the totals must not go down.
#
# What counts, per target (comment lines, those starting with `//`, are left out):
#   assertions  every XCTAssert…(, XCTFail(, XCTUnwrap(, #expect(, #require(, Issue.record( and
#               RxTest's Swift Testing helpers expectEqual( and expectMarbles( (RxTest's XCTest
#               helpers are spelt XCTAssert… and counted with those);
#   helper calls  every call site of the tests' own assertion helpers: the ones in Support/ whose names
#               do not say so (race, tightRace, eventually, error(of:, ObserverStorageChecks.…) and
#               every function of the target named assert, check, expect or verify, or
#               with one of these words first (assertArity, checkReplayed) (a helper's
#               own assertions are counted once, in its body, under "assertions").
#
# Usage: Tools/count-assertions.sh [--files] [target…]
#   --files  prints every file's counts too (to compare a split or a merge file by file).
set -euo pipefail
cd "$(dirname "$0")/.."

per_file=0
if [[ "${1:-}" == "--files" ]]; then
    per_file=1
    shift
fi

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    for dir in Tests/*/; do targets+=("$(basename "$dir")"); done
fi

primitive='(XCTAssert[A-Za-z]*|XCTFail|XCTUnwrap|#expect|#require|Issue\.record|expectEqual|expectMarbles)[[:space:]]*\('
fixed_helpers='race tightRace eventually assertGrammar assertCountsUp assertSameBehaviour'

# The code of the given files without comment lines.
code() { sed -E '/^[[:space:]]*\/\//d' "$@"; }

# count <pattern> <files…>: the pattern's occurrences.
count() {
    local pattern="$1"
    shift
    { code "$@" | grep -oE "$pattern" || true; } | wc -l | tr -d ' '
}

# The call-site pattern of every helper of the target (its files given).
helper_pattern() {
    local names
    names="$(
        {
            echo "$fixed_helpers" | tr ' ' '\n'
            code "$@" | grep -oE 'func (assert|expect|check|verify)([A-Z][A-Za-z0-9_]*)?[[:space:]]*[<(]' \
                | sed -E 's/^func //; s/[[:space:]]*[<(]$//' || true
        } | sort -u | paste -sd '|' -
    )"
    # A name followed by `(` or a trailing closure, not preceded by a letter, a dot or `func `.
    echo "(^|[^A-Za-z0-9_.])($names)[[:space:]]*(\(|\{)|ObserverStorageChecks\.[A-Za-z]+\(|[^A-Za-z0-9_.]error\(of:"
}

# Definitions look like calls to the pattern: `func name(` is subtracted.
definitions() {
    local files=("$@")
    count 'func (race|tightRace|eventually|error|(assert|expect|check|verify)([A-Z][A-Za-z0-9_]*)?|deliveryKeepsSubscriptionOrder|observersDisposedDuringADeliveryGetNothingMore|disposingEveryObserverInRandomOrderLeavesNone|churnWhileDelivering)[[:space:]]*[<(]' "${files[@]}"
}

grand_assertions=0
grand_helpers=0
printf '%-34s %10s %12s %8s\n' target assertions helper-calls total
for target in "${targets[@]}"; do
    mapfile -t files < <(find "Tests/$target" -name '*.swift' | sort)
    [[ ${#files[@]} -eq 0 ]] && continue
    pattern="$(helper_pattern "${files[@]}")"
    if [[ $per_file -eq 1 ]]; then
        for file in "${files[@]}"; do
            a="$(count "$primitive" "$file")"
            h=$(($(count "$pattern" "$file") - $(definitions "$file")))
            ((a + h > 0)) && printf '  %-60s %6d %6d\n' "${file#Tests/}" "$a" "$h"
        done
    fi
    a="$(count "$primitive" "${files[@]}")"
    h=$(($(count "$pattern" "${files[@]}") - $(definitions "${files[@]}")))
    printf '%-34s %10d %12d %8d\n' "$target" "$a" "$h" $((a + h))
    grand_assertions=$((grand_assertions + a))
    grand_helpers=$((grand_helpers + h))
done
printf '%-34s %10d %12d %8d\n' TOTAL "$grand_assertions" "$grand_helpers" $((grand_assertions + grand_helpers))
