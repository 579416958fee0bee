#!/usr/bin/env bash
# A second program, on OpenEXR's C core API, reads the frames written by the library and
# finds every double bit for bit; it must also notice a single flipped bit.
set -euo pipefail
make_frame=$1
verify=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for spec in "extreme 301 77 11" "extreme 1 1 5" "field 64 40 3"; do
  read -r kind width height seed <<<"$spec"
  "$make_frame" --kind "$kind" --width "$width" --height "$height" --seed "$seed" \
    --digest "digest-$seed" -o "$work/f$seed.exr" --raw "$work/f$seed.f64"
  "$verify" "$work/f$seed.exr" "$work/f$seed.f64" "digest-$seed"
done

expect_failure() {
  local what=$1
  shift
  if "$@" 2>"$work/err"; then
    echo "FAIL: the core reader accepted $what"
    exit 1
  fi
  echo "ok: $what noticed: $(cat "$work/err")"
}

expect_failure "a wrong digest" "$verify" "$work/f11.exr" "$work/f11.f64" "digest-12"

# Flip the lowest bit of one byte of the reference values.
offset=800
byte=$(od -An -tu1 -j "$offset" -N1 "$work/f11.f64" | tr -d ' ')
printf "\\$(printf '%03o' $((byte ^ 1)))" |
  dd of="$work/f11.f64" bs=1 seek="$offset" conv=notrunc status=none
expect_failure "one flipped bit" "$verify" "$work/f11.exr" "$work/f11.f64" "digest-11"
echo "core reader: all checks passed"
