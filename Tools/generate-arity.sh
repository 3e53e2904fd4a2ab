#!/usr/bin/env bash
# Regenerates the GENERATED-… arity files (combineLatest and zip, 2…8 sources) with Tools/GenerateArity
# and formats them with the repository's swift-format configuration. With --check, writes nothing
# and exits 1 if a committed file is not what the tool makes (CI runs the check).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -o "$work/generate-arity" Tools/GenerateArity/main.swift
"$work/generate-arity" "$work/out"
swift format format --in-place --configuration .swift-format --recursive "$work/out"
status=0
while IFS= read -r generated; do
    path=${generated#"$work/out/"}
    if [[ "${1:-}" == "--check" ]]; then
        if ! cmp -s "$generated" "$path"; then
            echo "not current: $path (run Tools/generate-arity.sh)"
            status=1
        fi
    else
        cp "$generated" "$path"
        echo "wrote $path"
    fi
done < <(find "$work/out" -name 'GENERATED-*.swift' | sort)
exit $status
