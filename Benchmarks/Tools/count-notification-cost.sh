#!/bin/bash
# The receiving side's cost of one Bluetooth notification (BlueZ's PropertiesChanged of a
# characteristic's Value) for three receivers: plain sd-bus (a match callback and a process/wait
# loop), RxDBus (`signals(matching:)`) and RxBluetoothKit (`observeValueUpdateAndSetNotification`
# against the simulated BlueZ). See Tools/RxNotificationCost/main.swift.
#
# Usage: Benchmarks/Tools/count-notification-cost.sh [regex matched against the receiver's name]
#
# Each receiver runs under callgrind twice, with COUNTS (default 2000 and 12000) notifications sent
# RATE a second (default 1000; 0 sends plain and rxdbus's as fast as they go, and kit's every 100 µs);
# the sender is another process, which callgrind does not follow. The difference of the totals divided
# by the difference of the counts is the cost of one notification, without start-up, connecting and
# subscribing. Then each runs twice more without valgrind, for the CPU time (user and system, so the
# kernel's side of the socket too; it varies with the machine's load).
#
# KEEP=<directory> keeps the callgrind files (callgrind.<receiver>.<count>) for callgrind_annotate.
# BREAKDOWN=<n> prints, after the table, each receiver's n functions with the most instructions per
# notification, callees included (the difference of the two runs' callgrind_annotate).
set -euo pipefail

package=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=callgrind-counts.sh
source "$package/Tools/callgrind-counts.sh"
filter=${1:-.}
read -r count1 count2 <<<"${COUNTS:-2000 12000}"
rate=${RATE:-1000}
swift build -c release --package-path "$package" --product RxNotificationCost >&2
binary="$package/.build/release/RxNotificationCost"
work=$(mktemp -d)
keep=${KEEP:-}
[[ -n "$keep" ]] && mkdir -p "$keep"

# One private dbus-daemon for every run; it stops when its standard input closes.
coproc BUS { "$binary" bus; }
read -r address <&"${BUS[0]}"
trap 'exec {BUS[1]}>&-; wait; rm -rf "$work"' EXIT

# Prints "<instructions> <malloc calls>" of a receiver taking $2 notifications.
count() {
    local output="$work/callgrind.$1.$2"
    valgrind --tool=callgrind --callgrind-out-file="$output" \
        "$binary" receive "$1" "$address" "$2" "$rate" </dev/null >"$work/out" 2>"$work/log" || {
        echo "valgrind run of $1 ($2) failed:" >&2
        cat "$work/out" "$work/log" >&2
        return 1
    }
    [[ -n "$keep" ]] && cp "$output" "$keep/"
    callgrind_counts "$work/log" "$output"
}

# Prints the receiver's CPU microseconds while taking $2 notifications, without valgrind (nothing if it
# failed).
cpu() {
    "$binary" receive "$1" "$address" "$2" "$rate" </dev/null 2>&1 | tee "$work/out" \
        | sed -n 's/.*cpu_us=\([0-9]*\).*/\1/p' || cat "$work/out" >&2
}

# Prints the $BREAKDOWN functions of receiver $1 with the most instructions per notification, callees
# included. (Functions that call themselves through others count more than once: the program's total
# bounds what is shown.)
breakdown() {
    table() {
        callgrind_annotate --inclusive=yes --auto=no --threshold=100 "$1" \
            | awk '/^ *[0-9,]+ +\(/ { c = $1; gsub(",", "", c); sub(/^ *[0-9,]+ +\([^)]*\) +/, ""); print $0 "\t" c }' \
            | LC_ALL=C sort -t $'\t' -k1,1
    }
    LC_ALL=C join -t $'\t' -a 2 -e 0 -o 0,1.2,2.2 <(table "$work/callgrind.$1.$count1") \
        <(table "$work/callgrind.$1.$count2") \
        | awk -F'\t' -v n=$((count2 - count1)) '
            { each[$1] = ($3 - $2) / n }
            $1 == "PROGRAM TOTALS" { total = each[$1] }
            END { for (f in each) if (each[f] >= 100 && each[f] <= total) printf "%8.0f  %s\n", each[f], f }' \
        | sort -rn | awk -v n="$BREAKDOWN" 'NR <= n' | swift demangle --simplified \
        | sed 's|^\( *[0-9]*  \)[^ :]*/\([^/:]*:\)|\1\2|; s| \[/[^]]*/\([^]/]*\)\]$| [\1]|'
}

per() { awk -v a="$1" -v b="$2" -v n=$((count2 - count1)) -v f="$3" 'BEGIN { printf f, (b - a) / n }'; }

echo "$((count2 - count1)) notifications (the difference of $count2 and $count1), $rate a second (0: as fast as they go)"
echo
echo "| receiver | instructions / notification | × plain sd-bus | mallocs / notification | CPU µs / notification |"
echo "|---|---:|---:|---:|---:|"
plain=""
failed=0
for receiver in plain rxdbus kit; do
    [[ "$receiver" =~ $filter ]] || continue
    read -r instructions1 mallocs1 < <(count "$receiver" "$count1") || true
    read -r instructions2 mallocs2 < <(count "$receiver" "$count2") || true
    if [[ -z "${instructions1:-}" || -z "${instructions2:-}" ]]; then
        printf '| %s | n/a (a run failed) | | | |\n' "$receiver"
        failed=1
        continue
    fi
    cpu1=$(cpu "$receiver" "$count1")
    cpu2=$(cpu "$receiver" "$count2")
    cpuEach=n/a
    if [[ -n "$cpu1" && -n "$cpu2" ]]; then cpuEach=$(per "$cpu1" "$cpu2" "%.1f"); else failed=1; fi
    each=$(per "$instructions1" "$instructions2" "%.0f")
    [[ "$receiver" == plain ]] && plain=$each
    ratio=$([[ -n "$plain" ]] && awk -v a="$each" -v p="$plain" 'BEGIN { printf "%.1f", a / p }' || echo "")
    printf '| %s | %s | %s | %s | %s |\n' "$receiver" "$each" "$ratio" \
        "$(per "$mallocs1" "$mallocs2" "%.1f")" "$cpuEach"
done

for receiver in plain rxdbus kit; do
    [[ -n "${BREAKDOWN:-}" && "$receiver" =~ $filter && -f "$work/callgrind.$receiver.$count2" ]] || continue
    echo
    echo "$receiver: instructions per notification, callees included"
    breakdown "$receiver"
done
exit "$failed"
