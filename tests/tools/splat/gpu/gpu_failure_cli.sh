#!/usr/bin/env bash
# The GPU backend's failure paths through starlens-splat, on any machine (CI has no GPU):
# an impossible device index exits 1 with one line naming the phase ("gpu device: ..."),
# leaves no frame and no manifest behind (no CPU fallback), and bad tuning variables exit 2.
# usage: gpu_failure_cli.sh SPLAT SYNTH_EVENTS
set -uo pipefail
splat=$1 synth=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../../cli_expect.sh"

cd "$work"
"$synth" --distribution mixed --count 2000 --width 64 --height 48 --seed 3 -o events.sle --quiet ||
  { echo "FAIL: synth-events"; exit 1; }

expect 1 "gpu device: " "$splat" -i events.sle -o frame.exr --backend gpu --gpu-device 4096 --quiet
[ ! -e frame.exr ] && [ ! -e frame.exr.manifest.json ] || fail "a failed GPU run left a frame or manifest"
ls | grep -q -v -x -e events.sle -e events.sle.manifest.json -e stdout -e stderr &&
  fail "a failed GPU run left files: $(ls)"

STARLENS_GPU_BATCH_EVENTS=0 expect 2 "STARLENS_GPU_BATCH_EVENTS" \
  "$splat" -i events.sle -o frame.exr --backend gpu --quiet
STARLENS_GPU_TILE_REFERENCES=many expect 2 "STARLENS_GPU_TILE_REFERENCES" \
  "$splat" -i events.sle -o frame.exr --backend gpu --quiet
STARLENS_GPU_SCATTER_SEGMENT=-3 expect 2 "STARLENS_GPU_SCATTER_SEGMENT.*not a whole number" \
  "$splat" -i events.sle -o frame.exr --backend gpu --quiet
expect 2 "--gpu-strategy: scatter32 not in {atomic,tile16,tile32,scatter16,adaptive}" "$splat" -i events.sle -o frame.exr --backend gpu --gpu-strategy scatter32 --quiet
[ ! -e frame.exr ] || fail "a rejected run left a frame"

[ "$failures" = 0 ] && echo "gpu failure paths: all checks passed"
exit $((failures > 0))
