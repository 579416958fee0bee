#!/usr/bin/env bash
# pipeline.mk's sequence targets on a tiny orbit (3 frames at 64x36): sl-movie renders every
# frame under one catalogue and one exposure (the reference frame's automatic one, recorded in
# every frame's manifest, or the one given), names the frames 00000.., makes a movie of the
# frames at the path's rate; afterwards `make -q` says up to date and `make -n` has nothing to
# run, and a changed path or exposure reruns exactly what it affects.
# usage: sequence_make.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
source_root=$1 build_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
python3() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }

cat >"$work/path.json" <<'JSON'
{"fps": 12, "frames": 3, "time_per_second": 600,
 "worldline": {"type": "orbit", "r": 12, "phi": 0}}
JSON
seq_make() {
  make --no-print-directory -f "$source_root/pipeline.mk" STARLENS="$source_root" \
    STARLENS_BUILD="$build_root" SL_OUT="$work/out" CATALOG_COMMAND="synth --count 3000 --seed 5" \
    PATH_FILE="$work/path.json" WIDTH=64 HEIGHT=36 FOV=60 MESH_STEP=8 THREADS=1 "$@"
}
stages_run() { grep -o 'starlens-[a-z]* \|ffmpeg ' "$work/log" | tr -d ' ' | sort | uniq -c | xargs; }

seq_make -j2 sl-movie >"$work/log" 2>&1 || { cat "$work/log"; fail "first sequence"; }
seq="$work/out/sequence"
for id in 00000 00001 00002; do
  for f in $id.exr $id.png $id/lensmap.h5 $id/events.sle; do [ -s "$seq/$f" ] || fail "missing $f"; done
done
[ -e "$seq/00003.png" ] && fail "a frame past the path's last"
[ -s "$seq/movie.mp4" ] || fail "no movie"
[ "$(grep -c 'starlens-catalog ' "$work/log")" = 1 ] || fail "catalogue not made exactly once"
python3 - "$seq" <<'PY' || fail "one exposure, frame numbers, path frames"
import json, sys
seq = sys.argv[1]
reference = json.load(open(f"{seq}/reference.exr.manifest.json"))["parameters"]["exposure"]
assert reference > 0
assert float(open(f"{seq}/exposure").read()) == reference
for n in range(3):
    m = json.load(open(f"{seq}/{n:05d}.exr.manifest.json"))
    assert m["parameters"]["exposure"] == reference, (n, m["parameters"]["exposure"], reference)
    t = json.load(open(f"{seq}/{n:05d}/lensmap.h5.manifest.json"))
    assert t["parameters"]["path_frame"] == n and abs(t["parameters"]["path_time"] - 50 * n) < 1e-9
PY
probe=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=nb_read_frames,r_frame_rate,width,height -of csv=p=0 "$seq/movie.mp4")
[ "$probe" = "64,36,12/1,3" ] || fail "movie: $probe (want 64x36, 12 fps, 3 frames)"

# Nothing changed: make -q says up to date, make -n has nothing to run, make runs nothing.
seq_make -q sl-movie || fail "make -q: not up to date after a complete run"
seq_make -n sl-movie >"$work/log" 2>&1
grep -q 'starlens-\|ffmpeg' "$work/log" && fail "make -n would run: $(cat "$work/log")"
seq_make sl-movie >"$work/log" 2>&1 || fail "second run"
[ -z "$(stages_run)" ] || fail "second run reran: $(stages_run)"

# A given exposure: every frame splatted again (and the movie), nothing traced or produced.
seq_make -q sl-movie SEQ_EXPOSURE=0.5 && fail "make -q: up to date after an exposure change"
seq_make -j2 sl-movie SEQ_EXPOSURE=0.5 >"$work/log" 2>&1 || fail "exposure change"
[ "$(stages_run)" = "1 ffmpeg 3 starlens-splat" ] || fail "exposure change reran: $(stages_run)"
python3 -c '
import json, sys
for n in range(3):
    assert json.load(open(f"{sys.argv[1]}/{n:05d}.exr.manifest.json"))["parameters"]["exposure"] == 0.5
' "$seq" || fail "given exposure not recorded"

# A changed path: every frame's map made again (a circular orbit: frame 0 traced once into
# orbit-map.h5, each frame's map turned from it), then its events and frame.
sed -i 's/"phi": 0/"phi": 5/' "$work/path.json"
seq_make -q sl-sequence SEQ_EXPOSURE=0.5 && fail "make -q: up to date after a path change"
seq_make -j2 sl-sequence SEQ_EXPOSURE=0.5 >"$work/log" 2>&1 || fail "path change"
[ "$(stages_run)" = "3 starlens-produce 3 starlens-splat 4 starlens-trace" ] ||
  fail "path change reran: $(stages_run)"
python3 -c '
import json, sys
for n in range(3):
    c = json.load(open(f"{sys.argv[1]}/{n:05d}/lensmap.h5.manifest.json"))["counts"]
    assert c["traced_rays"] == 0 and c["orbit_map"]["source_frame"] == 0, c
' "$seq" || fail "the orbit's frames were traced, not turned from orbit-map.h5"

echo "sequence_make: $failures failure(s)"
[ "$failures" = 0 ]
