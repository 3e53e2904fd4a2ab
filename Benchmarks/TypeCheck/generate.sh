#!/bin/bash
# Writes the type-check benchmark's client files into DIRECTORY: each template (*.swift.in) repeated
# with its placeholder NN numbered, so that one file holds several view models of the same shape (the
# type checker's work is per expression, so copies add up as a larger app's files would).
#
# Usage: Benchmarks/TypeCheck/generate.sh DIRECTORY
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: $0 DIRECTORY}
mkdir -p "$out"

generate() { # generate TEMPLATE COPIES NAME
    {
        echo "// Made by Benchmarks/TypeCheck/generate.sh from $1."
        echo "import RxCocoa"
        echo "import RxRelay"
        echo "import RxSwift"
        echo
        for i in $(seq -w 1 "$2"); do sed "s/NN/$i/g" "$here/$1"; done
    } >"$out/$3.swift"
}

generate viewmodel.swift.in 4 ViewModels
generate controller.swift.in 4 Controllers
generate chains.swift.in 10 Chains
