#!/usr/bin/env bash
# The vulkan backend against the CPU backend (docs/gpu.md, "The Vulkan backend"), on the
# Vulkan device the environment names (the test suite points VK_ICD_FILENAMES at Mesa's
# lavapipe, a CPU Vulkan driver, so CI runs it): starlens-compare with the GPU budget
# (tests/tools/splat/gpu/gpu_vs_cpu_budget.json) and equal class and contribution counts on
# uniform, hot-spot, mixed (direct and wing-clipped), frame-edge and --psf-direct events, frames
# that are no multiple of the 16 px tile, many small batches (chunks split across them), and
# tile lists long enough for the multi-dispatch sort; streams of cached events only must be
# bitwise the CPU's (bitwise_budget.json), and small batches must give the same bits as one.
# Exit 77 (skipped) only when the driver file VK_ICD_FILENAMES names does not exist: no
# Vulkan device on this machine.
# usage: vulkan_vs_cpu.sh SPLAT SYNTH_EVENTS COMPARE
set -uo pipefail
splat=$1 synth=$2 compare=$3
here=$(dirname "$(realpath "$0")")
budget=$here/../gpu/gpu_vs_cpu_budget.json
bitwise=$here/bitwise_budget.json
if [ -n "${VK_ICD_FILENAMES:-}" ] && [ ! -e "$VK_ICD_FILENAMES" ]; then
  echo "no Vulkan device: $VK_ICD_FILENAMES does not exist (mesa-vulkan-drivers installs it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$work"

synth() {  # synth NAME ARGS...
  local name=$1; shift
  "$synth" "$@" -o "$name.sle" --quiet || fail "synth $name"
}
reference() {  # reference CASE [SPLAT_ARGS...]
  local case=$1; shift
  "$splat" -i "$case.sle" -o "$case.cpu.exr" --backend cpu --quiet "$@" || fail "$case: cpu reference"
}
# check CASE BUDGET LABEL [ENV=VALUE ...] [-- SPLAT_ARGS...]: the vulkan frame against the CPU's
check() {
  local case=$1 limits=$2 label=$3; shift 3
  local env=() args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
  [ $# -gt 0 ] && shift && args=("$@")
  local frame=$case.$label.exr
  env "${env[@]}" "$splat" -i "$case.sle" -o "$frame" --backend vulkan --quiet "${args[@]}" \
    >splat.out 2>&1 || { fail "$case $label: splat exited $?: $(cat splat.out)"; return; }
  "$compare" "$frame" "$case.cpu.exr" --budget "$limits" --report report.json --force >compare.out 2>&1 ||
    { fail "$case $label: over budget: $(tail -n 4 compare.out)"; return; }
  local counts
  counts=$(python3 - "$frame.manifest.json" "$case.cpu.exr.manifest.json" <<'PY'
import json, sys
gpu, cpu = (json.load(open(p))["counts"] for p in sys.argv[1:3])
keys = ("events", "events_cache", "events_wing_clip", "events_direct", "contributions",
        "contributions_cache", "contributions_direct")
bad = [k for k in keys if gpu.get(k) != cpu.get(k)]
print(", ".join(f"{k} vulkan {gpu.get(k)} cpu {cpu.get(k)}" for k in bad))
PY
)
  [ -z "$counts" ] || { fail "$case $label: counts differ: $counts"; return; }
  echo "ok  $case $label $(python3 "$here/../gpu/report_line.py" report.json)"
}
# same CASE LABEL_A LABEL_B: two vulkan frames of a case bitwise equal
same() {
  "$compare" "$1.$2.exr" "$1.$3.exr" --budget "$bitwise" >compare.out 2>&1 ||
    fail "$1: $2 and $3 differ: $(tail -n 2 compare.out)"
}

synth uniform --distribution uniform --count 12000 --width 250 --height 170 --seed 11 --chunk-events 4096
synth hotspot --distribution hotspot --count 12000 --width 250 --height 170 --seed 12 --chunk-events 4096
synth cached --distribution uniform --count 12000 --width 250 --height 170 --seed 17 --flux-max 0.01 --chunk-events 4096
synth mixed --distribution mixed --count 900 --width 121 --height 83 --seed 13 --chunk-events 500
synth edges --distribution mixed --count 600 --width 37 --height 23 --seed 14 --chunk-events 100
synth direct --distribution mixed --count 150 --width 45 --height 29 --seed 15 --chunk-events 100
synth crowded --distribution hotspot --count 60000 --width 40 --height 30 --seed 16 --flux-max 0.01 --chunk-events 4096

for case in uniform hotspot cached mixed edges crowded; do reference "$case"; done
reference direct --psf-direct

check uniform "$budget" one-batch
check uniform "$budget" small-batches STARLENS_VULKAN_BATCH_EVENTS=1000
same uniform one-batch small-batches
# Whole tile lists in one accumulate dispatch (every driver but llvmpipe), and windows of a few
# events (many dispatches a pass): the same bits.
check uniform "$budget" whole-lists STARLENS_VULKAN_LIST_WINDOW=whole
same uniform one-batch whole-lists
check uniform "$budget" short-windows STARLENS_VULKAN_LIST_WINDOW=7
same uniform one-batch short-windows
check hotspot "$budget" one-batch
check hotspot "$budget" small-batches STARLENS_VULKAN_BATCH_EVENTS=3001
check cached "$bitwise" bitwise
check cached "$bitwise" bitwise-small-batches STARLENS_VULKAN_BATCH_EVENTS=777
check cached "$bitwise" bitwise-whole-lists STARLENS_VULKAN_LIST_WINDOW=whole
check mixed "$budget" one-batch
check mixed "$budget" small-batches STARLENS_VULKAN_BATCH_EVENTS=100
same mixed one-batch small-batches
check edges "$budget" one-batch
check edges "$budget" small-batches STARLENS_VULKAN_BATCH_EVENTS=50
check direct "$budget" psf-direct -- --psf-direct
check crowded "$bitwise" long-lists
# The crowded frame's lists must be long enough for the multi-dispatch sort and for several
# accumulate windows (kSharedSortKeys 4096, lavapipe's window 2048).
longest=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['vulkan']['longest_tile_list'])" \
  crowded.long-lists.exr.manifest.json 2>/dev/null)
[ "${longest:-0}" -gt 4096 ] || fail "crowded: the longest tile list is ${longest:-missing}, not above 4096"
# The manifest names the device and its features.
python3 - mixed.one-batch.exr.manifest.json <<'PY' || fail "manifest: vulkan section incomplete"
import json, sys
m = json.load(open(sys.argv[1]))
v = m["vulkan"]
assert m["parameters"]["backend"] == "vulkan"
assert v["device"]["name"] and v["device"]["api_version"] and "shaderFloat64" in v["device"]["features"]
assert v["device"]["features"]["shaderFloat64"] is True
assert v["strategy_used"] in ("tile16", "atomic") and v["device_memory_peak_bytes"] > 0
assert m["counts"]["events_evaluated_direct"] > 0
PY

[ "$failures" = 0 ] && echo "vulkan against cpu: all checks passed"
exit $((failures > 0))
