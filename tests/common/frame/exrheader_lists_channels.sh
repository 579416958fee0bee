#!/usr/bin/env bash
# OpenEXR's own command-line tool (Debian package openexr) lists what the library wrote:
# the nine channels with their types, ZIP compression and the starlens attributes.
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
for c in R G B; do
  require "^ +$c, 32-bit floating-point"
  require "^ +$c\\.f64hi, 32-bit unsigned integer"
  require "^ +$c\\.f64lo, 32-bit unsigned integer"
done
require "^compression \(type compression\): zip, multi-scanline blocks$"
require "^starlensFormatVersion \(type int\): 1$"
require '^starlensRunDigest \(type string\): "0123abcd"$'
require "^dataWindow \(type box2i\): \(0 0\) - \(39 29\)$"
channels=$(grep -Ec "^ +[RGB](\.f64(hi|lo))?, " "$work/header.txt")
if [ "$channels" -ne 9 ]; then
  echo "FAIL: exrheader lists $channels channels, expected 9"
  exit 1
fi
echo "exrheader: 9 channels and the starlens attributes listed"
