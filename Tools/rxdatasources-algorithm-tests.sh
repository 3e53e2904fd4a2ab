#!/usr/bin/env bash
# Runs RxDataSources' own algorithm tests, unchanged, against this package's Differentiator and
# RxDataSources products: `Tools/rxdatasources-algorithm-tests.sh <RxDataSources checkout>`.
# Their files are read from the checkout into a scratch package, never into this repository. The two
# tests that assert RxDataSources' extra moves (testItemMove1, testMovedSection1) fail by design: see
# Differentiator's "What differs from RxDataSources, and why".
set -euo pipefail
checkout=${1:?usage: $0 <path to a RxDataSources checkout>}
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/Tests/AlgorithmTests"
for file in AlgorithmTests Array+Extensions ChangeSet+TestExtensions NumberSection Randomizer XCTest+Extensions i s; do
    cp "$checkout/Tests/RxDataSourcesTests/$file.swift" "$scratch/Tests/AlgorithmTests/"
done
cat >"$scratch/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "rxdatasources-algorithm-tests",
    dependencies: [.package(name: "swift-rx", path: "$here")],
    targets: [
        .testTarget(
            name: "AlgorithmTests",
            dependencies: [
                .product(name: "RxDataSources", package: "swift-rx"),
                .product(name: "Differentiator", package: "swift-rx"),
            ])
    ],
    swiftLanguageModes: [.v5]
)
MANIFEST
swift test --package-path "$scratch" -c release 2>&1 | grep -E "^Test Case .*(passed|failed)|error:|Executed" || true
