#!/usr/bin/env bash
# Limits set by the formats, not by the input: lens maps and stores whose attributes are
# stored as arrays, whose sizes and angles lie outside their documented ranges, and paths that
# are no file at all are refused by produce (and `catalog info`) with exit 2, one line naming
# the file and the field, and no output left behind.
# usage: produce_limits_cli.sh PRODUCE TRACE FIXTURES CATALOG
set -uo pipefail
produce=$1 trace=$2 fixtures=$3 catalog=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"
no_output() { [ ! -e "$1" ] && [ ! -e "$1.manifest.json" ] || fail "output left behind: $1"; }

cd "$work"
"$trace" --spacetime minkowski --bh-ra 100 --bh-dec 20 --fov 40 --width 64 --height 40 \
  -o map.h5 --quiet || { echo "FAIL: trace"; exit 1; }
"$fixtures" uniform --count 2000 --order 2 --seed 1 -o sky.h5 || { echo "FAIL: fixture store"; exit 1; }
expect 0 "" "$produce" -l map.h5 -c sky.h5 -o good.sle --quiet

# A bad lens map: the copy, the message expected, then produce on it.
bad_map() {
  local name=$1 pattern=$2; shift 2
  "$fixtures" damage map.h5 -o "$name" "$@" || fail "fixture $name"
  expect 2 "$name: $pattern" "$produce" -l "$name" -c sky.h5 -o x.sle --quiet; no_output x.sle
}
bad_map r_obs3.h5 "attribute r_obs: is an array of 3 values, expected a scalar" --set-array r_obs=3
bad_map width4000.h5 "attribute width: is an array of 4000 values, expected a scalar" \
  --set-array width=4000
bad_map spacetime2.h5 "attribute spacetime: is an array of 2 values" --set-array spacetime=2
bad_map height_max.h5 "attribute height: 9223372036854775807 is outside 1..65536 px" \
  --set-int height=9223372036854775807
bad_map width_big.h5 "attribute width: 4294967296 is outside 1..65536 px" --set-int width=4294967296
bad_map fov_tiny.h5 "attribute fov_deg: 1e-308 is outside \[0.001, 180) degrees (pinhole)" \
  --set-double fov_deg=1e-308
bad_map r_obs_nan.h5 "attribute r_obs: nan is outside" --set-double r_obs=nan
bad_map depth.h5 "attribute mesh_max_depth: -1 is outside 0..40" --set-int mesh_max_depth=-1
bad_map fov_int.h5 "attribute fov_deg: not a floating-point number" --set-int fov_deg=60

# A Kerr map whose attributes do not make its rays (its images' magnifications are traced with
# them: traced_images.h).
"$trace" --spacetime kerr --spin 0.9 --inclination 70 --r-obs 20 --fov 40 --width 64 --height 40 \
  -o kerr.h5 --quiet || { echo "FAIL: trace kerr"; exit 1; }
expect 0 "" "$produce" -l kerr.h5 -c sky.h5 -o kerr.sle --quiet
"$fixtures" damage kerr.h5 -o kerr_spin.h5 --set-double spin=0.5 || fail "fixture kerr_spin.h5"
expect 2 "kerr_spin.h5: /vertices/dir: the vertex at pixel .* does not hold its ray traced with the map's attributes" \
  "$produce" -l kerr_spin.h5 -c sky.h5 -o x.sle --quiet
no_output x.sle

# A bad store, for produce and for `catalog info`.
bad_store() {
  local name=$1 pattern=$2; shift 2
  "$fixtures" damage sky.h5 -o "$name" "$@" || fail "fixture $name"
  expect 2 "$name: $pattern" "$produce" -l map.h5 -c "$name" -o x.sle --quiet; no_output x.sle
  expect 2 "$name: $pattern" "$catalog" info "$name" --quiet
}
bad_store count4000.h5 "attribute count: is an array of 4000 values, expected a scalar" \
  --set-array count=4000
bad_store order3.h5 "attribute order: is an array of 3 values, expected a scalar" --set-array order=3
bad_store f0.h5 "attribute F0: is an array of 2 values, expected a scalar" --set-array F0=2
bad_store band.h5 "attribute band: 'B' is not V, J, H, Ks or G" --set-string band=B

# Paths that are no HDF5 file, each said as what it is.
mkdir folder.h5
: >empty.h5
for flag in -l -c; do
  other=$([ "$flag" = -l ] && echo "-c sky.h5" || echo "-l map.h5")
  expect 2 "folder.h5: $flag/--.*: is a folder, not a file" "$produce" $flag folder.h5 $other -o x.sle --quiet
  no_output x.sle
  expect 2 "/dev/zero: $flag/--.*: is not a regular file" "$produce" $flag /dev/zero $other -o x.sle --quiet
  expect 2 "/dev/null: $flag/--.*: is not a regular file" "$produce" $flag /dev/null $other -o x.sle --quiet
  expect 2 "empty.h5: $flag/--.*: is empty" "$produce" $flag empty.h5 $other -o x.sle --quiet
  no_output x.sle
"$fixtures" damage kerr.h5 -o kerr_spin1.h5 --set-double spin=1.5 || fail "fixture kerr_spin1.h5"
expect 2 "kerr_spin1.h5: attribute spin: must satisfy |spin| < 1" \
  "$produce" -l kerr_spin1.h5 -c sky.h5 -o x.sle --quiet
no_output x.sle
"$fixtures" damage kerr.h5 -o kerr_inside.h5 --set-double r_obs=1.2 || fail "fixture kerr_inside.h5"
expect 2 "kerr_inside.h5: attribute r_obs: 1.200000 is not outside the outer horizon r_+ = 1.435890" \
  "$produce" -l kerr_inside.h5 -c sky.h5 -o x.sle --quiet
no_output x.sle
done
expect 2 "folder.h5: is a folder, not a file" "$catalog" info folder.h5 --quiet
expect 2 "/dev/zero: is not a regular file" "$catalog" info /dev/zero --quiet
expect 2 "/dev/null: is not a regular file" "$catalog" info /dev/null --quiet
expect 2 "empty.h5: is empty" "$catalog" info empty.h5 --quiet

[ "$failures" = 0 ] && echo "all produce limit checks passed"
exit $((failures > 0))
