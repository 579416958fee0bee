#!/usr/bin/env bash
# pipeline.mk on a miniature scene: a second run does nothing, a PSF change reruns only
# produce and splat, a camera change reruns trace and after, a bad parameter reaches the tool
# and fails with its message without leaving anything make would take as up to date.
# usage: pipeline_make.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
source_root=$1 build_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

render() {
  make --no-print-directory -f "$source_root/pipeline.mk" sl-frame STARLENS="$source_root" \
    STARLENS_BUILD="$build_root" SL_OUT="$work/out" CATALOG_COMMAND="synth --count 20000 --seed 3" \
    WIDTH=96 HEIGHT=64 FOV=40 MESH_STEP=8 THREADS=2 "$@" >"$work/log" 2>&1
}
# The stages a run executed, in order.
stages_run() { grep -o 'starlens-[a-z]* ' "$work/log" | grep -v '^starlens-[a-z]*: ' | tr -d ' ' | sort -u | xargs; }

render || { cat "$work/log"; fail "first render"; }
for file in catalog.h5 lensmap.h5 events.sle frame.exr frame.png; do
  [ -s "$work/out/$file" ] && [ -e "$work/out/$file.manifest.json" -o "$file" = frame.png ] ||
    fail "missing $file or its manifest"
done

render || fail "second render"
[ -z "$(stages_run)" ] || fail "second run reran: $(stages_run)"

render PSF_FWHM=2.5 || fail "PSF change"
[ "$(stages_run)" = "starlens-produce starlens-splat" ] || fail "PSF change reran: $(stages_run)"

render PSF_FWHM=2.5 ROLL=10 || fail "roll change"
[ "$(stages_run)" = "starlens-produce starlens-splat starlens-trace" ] || fail "roll change reran: $(stages_run)"

before=$(stat -c %Y "$work/out/lensmap.h5")
render PSF_FWHM=2.5 ROLL=10 R_OBS=2 && fail "r_obs 2 succeeded"
grep -q 'starlens-trace: error: .*r-obs' "$work/log" || fail "trace's message did not reach make's output"
[ "$(stat -c %Y "$work/out/lensmap.h5")" = "$before" ] || fail "failed trace touched lensmap.h5"
ls "$work/out" | grep -q '\.tmp\.' && fail "temporary file left behind"
# The failed parameters are not taken as done: the same command fails again.
render PSF_FWHM=2.5 ROLL=10 R_OBS=2 && fail "failed stage taken as up to date"
# Back to good parameters: trace reruns (its parameter line changed again), nothing is stale.
render PSF_FWHM=2.5 ROLL=10 || fail "recovery"
[ "$(stages_run)" = "starlens-trace" ] || [ "$(stages_run)" = "starlens-produce starlens-splat starlens-trace" ] ||
  fail "recovery reran: $(stages_run)"

echo "pipeline_make: $failures failure(s)"
[ "$failures" = 0 ]
