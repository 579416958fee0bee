#!/usr/bin/env bash
# OpenEXR's own command-line tool (Debian package openexr) lists what the library wrote:
# two parts, "rgba" with the three FLOAT channels and "exact" with the six UINT words, ZIP
# compression and the starlens attributes.
set -euo pipefail
make_frame=$1
exrheader=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$make_frame" --kind field --width 40 --height 30 --digest 0123abcd -o "$work/f.exr"
"$exrheader" "$work/f.exr" >"$work/header.txt"
cat "$work/header.txt"

require() {
  if ! grep -Eq -- "$1" "$work/header.txt"; then
    echo "FAIL: exrheader output lacks /$1/"
    exit 1
  fi
}
require "^file format version: 2, flags 0x1000$"
require "^ part 0:$"
require "^ part 1:$"
require '^name \(type string\): "rgba"$'
require '^name \(type string\): "exact"$'
for c in R G B; do
  require "^ +$c, 32-bit floating-point"
  require "^ +f64hi\\.$c, 32-bit unsigned integer"
  require "^ +f64lo\\.$c, 32-bit unsigned integer"
done
require "^compression \(type compression\): zip, multi-scanline blocks$"
require "^starlensFormatVersion \(type int\): 2$"
require '^starlensRunDigest \(type string\): "0123abcd"$'
require "^starlensExposure \(type double\): 1$"
require "^dataWindow \(type box2i\): \(0 0\) - \(39 29\)$"
# Part 0 (up to " part 1:") holds only R, G and B.
part0=$(sed -n '/^ part 0:$/,/^ part 1:$/p' "$work/header.txt")
if [ "$(grep -Ec '^ +[^ ]+, 32-bit' <<<"$part0")" -ne 3 ] || grep -q f64 <<<"$part0"; then
  echo "FAIL: part 0 holds other channels than R, G, B"
  exit 1
fi
channels=$(grep -Ec "^ +(f64(hi|lo)\.)?[RGB], " "$work/header.txt")
if [ "$channels" -ne 9 ]; then
  echo "FAIL: exrheader lists $channels channels, expected 9"
  exit 1
fi
echo "exrheader: parts rgba (3 channels) and exact (6 words) and the starlens attributes listed"
