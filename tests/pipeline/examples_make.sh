#!/usr/bin/env bash
# examples/orbit, examples/infall and their Kerr (a = 0.9) counterparts examples/kerr-orbit and
# examples/kerr-infall through their Makefiles, 2 frames each at 64x36 on a
# synthetic catalogue (the examples themselves are 240 frames at 640x360 on Stellarium's):
# the frames are made, each lens map is the path's frame at its proper time, and the last
# frame of each 10 s path (239) is accepted by starlens-trace.
# usage: examples_make.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
source_root=$1 build_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
python3() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }
for example in orbit infall kerr-orbit kerr-infall; do
  spacetime=()
  [[ $example == kerr-* ]] && spacetime=(--spacetime kerr --spin 0.9)
  make --no-print-directory -j2 -C "$source_root/examples/$example" sl-sequence FIRST=0 LAST=1 \
    WIDTH=64 HEIGHT=36 MESH_STEP=8 SL_OUT="$work/$example" STARLENS_BUILD="$build_root" \
    CATALOG_COMMAND="synth --count 2000 --seed 1" >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "$example: two frames"; continue; }
  for id in 00000 00001; do [ -s "$work/$example/sequence/$id.png" ] || fail "$example: no frame $id"; done
  [ -e "$work/$example/sequence/00002.png" ] && fail "$example: frame past LAST"
  python3 - "$work/$example/sequence" "$source_root/examples/$example/path.json" <<'PY' || fail "$example: frame times"
import json, sys
path = json.load(open(sys.argv[2]))
assert path["fps"] == 24 and path["duration"] == 10
for n in (0, 1):
    p = json.load(open(f"{sys.argv[1]}/{n:05d}/lensmap.h5.manifest.json"))["parameters"]
    assert p["spacetime"] == ("kerr" if "/examples/kerr-" in sys.argv[2] else "schwarzschild"), p
    assert p["path_frame"] == n and abs(p["path_time"] - n * path["time_per_second"] / 24) < 1e-12, p
PY
  "$build_root/tools/trace/starlens-trace" "${spacetime[@]}" \
    --path "$source_root/examples/$example/path.json" --frame 239 --width 16 --height 9 --mesh-step 8 --quiet -o "$work/$example-last.h5" ||
    fail "$example: last frame refused"
done
echo "examples_make: $failures failure(s)"
[ "$failures" = 0 ]
