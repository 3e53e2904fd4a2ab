#!/bin/sh
# Fuzzes the GIF decoder with libFuzzer for SECONDS (default 300), starting from small GIFs made by
# ImageMagick and gifsicle (when installed) and the current corpus, then merges what it found
# (inputs reaching new code) into Tests/IGifTests/FuzzCorpus, which the tests decode.
#
#   Examples/Tools/fuzz-gif/run.sh [SECONDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
examples=$(cd "$here/../.." && pwd)
corpus="$examples/Tests/IGifTests/FuzzCorpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seconds=${1:-300}

swiftc -sanitize=fuzzer,address -parse-as-library -O -o "$work/fuzz-gif" \
    "$examples/Sources/IGif/GIF/GIFDecoder.swift" "$here/FuzzGIF.swift"

mkdir -p "$work/seeds" "$work/found" "$corpus"
if command -v convert >/dev/null; then
    convert -size 8x6 gradient:red-blue "$work/seeds/gradient.gif"
    convert -size 8x8 xc:none -fill green -draw "circle 4,4 4,1" -interlace GIF "$work/seeds/interlaced.gif"
    convert -size 6x6 gradient:white-black -size 6x6 xc:none -fill red -draw "point 2,2" \
        -set dispose previous -set delay 5 -loop 0 "$work/seeds/anim.gif"
    convert -size 5x5 xc:blue -dispose background -page 10x10+3+3 xc:red -loop 0 "$work/seeds/pages.gif"
fi
if command -v gifsicle >/dev/null && [ -f "$work/seeds/anim.gif" ]; then
    gifsicle -O3 "$work/seeds/anim.gif" >"$work/seeds/optimized.gif"
    gifsicle --colors 4 --interlace "$work/seeds/gradient.gif" >"$work/seeds/four-colours.gif"
fi
cp "$corpus"/* "$work/seeds/" 2>/dev/null || true

"$work/fuzz-gif" -max_total_time="$seconds" -max_len=4096 -dict="$here/gif.dict" -print_final_stats=1 \
    "$work/found" "$work/seeds"
# Keep the smallest set of inputs covering what all of them cover.
mkdir -p "$work/merged"
"$work/fuzz-gif" -merge=1 "$work/merged" "$work/seeds" "$work/found" 2>/dev/null
rm -f "$corpus"/*
cp "$work/merged"/* "$corpus/"
echo "corpus: $(ls "$corpus" | wc -l) files in $corpus"
