#!/usr/bin/env bash
# Builds the DocC documentation of the library's modules, the server package's bridges and the
# Bluetooth package's modules, module by module, and fails if DocC reports any warning: a broken symbol
# link or a parameter list that no longer matches its signature otherwise goes unnoticed until someone
# reads the page. One debug build
# per package (its own scratch path, .build-docs) emits the symbol graphs; each module's docc run
# loads only that module's graphs, as a per-module documentation build does. Prints the diagnostics;
# exits non-zero if any module has a warning.
#
# Usage: Tools/check-docs.sh [--library-only]   (the server and Bluetooth packages' builds take their
# dependencies' minutes; --library-only leaves them out)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

work="$(mktemp -d "${TMPDIR:-/tmp}/check-docs.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failed=()

# check <package folder> <module>…: builds the package with symbol graphs, then converts each module.
check() {
    local package=$1
    shift
    # The graphs live in the scratch path, not in a fresh temporary directory: the compiler writes a
    # module's graph only when it compiles the module, so a second, incremental run would find none.
    local graphs="$PWD/$package/.build-docs/symbol-graphs"
    mkdir -p "$graphs"
    echo "-- building $package with symbol graphs ($package/.build-docs)"
    swift build --package-path "$package" --scratch-path "$package/.build-docs" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"

    local module
    for module in "$@"; do
        local dir="$work/$module-graphs"
        mkdir -p "$dir"
        cp "$graphs/$module.symbols.json" "$dir/"
        shopt -s nullglob
        local extensions=("$graphs/$module"@*.symbols.json)
        shopt -u nullglob
        if ((${#extensions[@]} > 0)); then cp "${extensions[@]}" "$dir/"; fi

        # RxRelay, RxBlocking and RxCocoaInspect have no catalog: docc documents the symbols alone.
        local catalog=()
        if [[ -d "$package/Sources/$module/$module.docc" ]]; then catalog=("$package/Sources/$module/$module.docc"); fi

        echo "-- docc convert $module"
        local log="$work/$module.log"
        local status=0
        docc convert ${catalog[@]+"${catalog[@]}"} --additional-symbol-graph-dir "$dir" \
            --fallback-display-name "$module" --fallback-bundle-identifier "org.swiftrx.$module" \
            --output-path "$work/$module.doccarchive" --analyze >"$log" 2>&1 || status=$?
        # --analyze adds notes (article structure hints, dozens of them): only the warnings and errors
        # are printed, each with its source excerpt (a block up to the next blank line), and only they
        # fail the check.
        awk '/^(warning|error): / { show = 1 } /^$/ { if (show) print; show = 0 } show' "$log"
        if ((status != 0)); then cat "$log"; echo "docc convert $module failed ($status)"; fi
        local count
        count=$(grep -cE '^(warning|error): ' "$log" || true)
        echo "-- $module: $count warning(s)"
        if ((status != 0 || count > 0)); then failed+=("$module"); fi
    done
}

check . RxSwift RxRelay RxTest RxBlocking RxCocoa RxInspect RxCocoaInspect Differentiator RxDataSources
if [[ "${1:-}" != "--library-only" ]]; then
    check Server RxNIO RxAsyncHTTPClient RxHummingbird
    check Bluetooth RxDBus CoreBluetooth RxBluetoothKit BlueZSim
fi

if ((${#failed[@]} > 0)); then
    echo "documentation warnings in: ${failed[*]}" >&2
    exit 1
fi
echo "documentation: no warnings"
