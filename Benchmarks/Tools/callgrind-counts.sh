# Sourced by the instruction counters (count-instructions.sh, count-notification-cost.sh).
#
# callgrind_counts LOG OUTPUT: prints "instructions mallocs" of one callgrind run, from its log (the
# "Collected" total) and its output file (the calls to malloc).
callgrind_counts() {
    local instructions mallocs
    instructions=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$1")
    # Sums the call counts of every call to malloc (callgrind names a function in full once, then by id).
    mallocs=$(awk '
        /^c?fn=/ {
            id = $1; sub(/^c?fn=/, "", id)
            if (NF > 1) { name[id] = $2 }
            if ($0 ~ /^cfn=/) { target = name[id] }
            next
        }
        /^calls=/ && target == "malloc" { split($1, c, "="); total += c[2] }
        /^calls=/ { target = "" }
        END { print total + 0 }
    ' "$2")
    echo "$instructions $mallocs"
}
