#!/usr/bin/env bash
# Every GPU check in one call on a machine with a GPU (docs/gpu.md, "Checks on the device"):
# the host and failure-path tests; GPU against CPU for every strategy on uniform, hot-spot,
# mixed (direct + wing-clipped), edge-hugging and --psf-direct events, frames that are not
# multiples of the tile sizes, many small batches and scratch split into rounds; exact
# contribution counts; compute-sanitizer memcheck, racecheck, initcheck and synccheck on a
# small case. Logs go to OUT_DIR; the last lines are a summary table.
# usage: run_on_device.sh BIN_DIR OUT_DIR
#   BIN_DIR: starlens-splat, starlens-synth-events, starlens-compare (built with -Dgpu=cuda)
#            and the tests test_gpu_host, test_gpu_failure; libraries on LD_LIBRARY_PATH.
#   env: SPLAT, another build of starlens-splat whose GPU backend is checked (an experiment's;
#        the CPU references stay BIN_DIR's); RUN_TIMEOUT (120) and SANITIZER_TIMEOUT (600),
#        seconds a GPU run may take before it counts as failed (a hung kernel would otherwise
#        hold the device call to its limit). A bad value exits 2 before anything runs.
set -uo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
splat=$(realpath -m "${SPLAT:-$bin/starlens-splat}")
if [ ! -x "$splat" ]; then
  echo "run_on_device.sh: SPLAT: $splat is not an executable file" >&2
  exit 2
fi
run_timeout=${RUN_TIMEOUT:-120} sanitizer_timeout=${SANITIZER_TIMEOUT:-600}
for seconds in "$run_timeout" "$sanitizer_timeout"; do
  if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "run_on_device.sh: RUN_TIMEOUT / SANITIZER_TIMEOUT: '$seconds' is not a positive whole number of seconds" >&2
    exit 2
  fi
done
here=$(dirname "$(realpath "$0")")
budget=$here/gpu_vs_cpu_budget.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
log=$out/checks.log
: >"$log"
summary=()
failures=0
record() {  # record NAME STATUS DETAIL
  summary+=("$(printf '%-44s %-5s %s' "$1" "$2" "$3")")
  [ "$2" = ok ] || failures=$((failures + 1))
}
note() { echo "== $*" >>"$log"; }

note "device"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nproc; } >>"$log" 2>&1
note "splat checked: $splat"

for test in test_gpu_host test_gpu_failure; do
  note "$test"
  if "$bin/$test" >>"$log" 2>&1; then record "$test" ok ""; else record "$test" FAIL "see checks.log"; fi
done
note "gpu_failure_cli"
if timeout "$run_timeout" bash "$here/gpu_failure_cli.sh" "$splat" "$bin/starlens-synth-events" >>"$log" 2>&1; then
  record "failure paths (cli)" ok ""
else
  record "failure paths (cli)" FAIL "see checks.log"
fi

# Out of device memory: a 100000 x 100000 frame (240 GB of doubles) must fail with the phase.
note "out of memory"
"$bin/starlens-synth-events" --distribution uniform --count 100 --width 100000 --height 100000 \
  -o "$work/huge.sle" --quiet >>"$log" 2>&1
timeout "$run_timeout" "$splat" -i "$work/huge.sle" -o "$work/huge.exr" --backend gpu --quiet >"$work/oom.out" 2>&1
status=$?
cat "$work/oom.out" >>"$log"
if [ "$status" = 1 ] && grep -q "gpu frame allocation: " "$work/oom.out" && [ ! -e "$work/huge.exr" ]; then
  record "out of device memory" ok "$(head -c 120 "$work/oom.out")"
else
  record "out of device memory" FAIL "exit $status: $(head -c 200 "$work/oom.out")"
fi

# synth NAME ARGS... : an event stream in $work/NAME.sle
synth() {
  local name=$1; shift
  "$bin/starlens-synth-events" "$@" -o "$work/$name.sle" --quiet >>"$log" 2>&1 ||
    record "synth $name" FAIL "starlens-synth-events failed"
}

# check CASE STRATEGY [ENV=VALUE ...] [-- SPLAT_ARGS...] : GPU frame against $work/CASE.cpu.exr
check() {
  local case=$1 strategy=$2; shift 2
  local env=() args=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
  [ $# -gt 0 ] && shift && args=("$@")
  local label="$case $strategy ${env[*]}" frame=$work/$case.$strategy.exr
  # Poisoned output: a NaN-filled file in its place; --force must replace it whole.
  head -c 4096 /dev/zero | tr '\0' '\377' >"$frame"
  note "$label"
  env "${env[@]}" timeout "$run_timeout" "$splat" -i "$work/$case.sle" -o "$frame" --backend gpu \
    --gpu-strategy "$strategy" --force --quiet "${args[@]}" >"$work/splat.out" 2>&1
  local status=$?
  cat "$work/splat.out" >>"$log"
  if [ "$status" != 0 ]; then record "$label" FAIL "splat exit $status: $(head -c 160 "$work/splat.out")"; return; fi
  if ! "$bin/starlens-compare" "$frame" "$work/$case.cpu.exr" --budget "$budget" \
      --report "$work/report.json" --force >>"$log" 2>&1; then
    record "$label" FAIL "over budget: $(python3 "$here/report_line.py" "$work/report.json" 2>&1)"; return
  fi
  local counts
  counts=$(python3 - "$frame.manifest.json" "$work/$case.cpu.exr.manifest.json" <<'PY' 2>&1
import json, sys
gpu, cpu = (json.load(open(p))["counts"] for p in sys.argv[1:3])
keys = ("events", "events_cache", "events_wing_clip", "events_direct", "contributions")
bad = [k for k in keys if gpu.get(k) != cpu.get(k)]
print("counts differ: " + ", ".join(f"{k} gpu {gpu.get(k)} cpu {cpu.get(k)}" for k in bad) if bad else "")
PY
)
  if [ -n "$counts" ]; then record "$label" FAIL "$counts"; return; fi
  record "$label" ok "$(python3 "$here/report_line.py" "$work/report.json")"
}

# reference CASE [SPLAT_ARGS...] : the CPU frame of a case
reference() {
  local case=$1; shift
  note "$case cpu"
  "$bin/starlens-splat" -i "$work/$case.sle" -o "$work/$case.cpu.exr" --backend cpu --force --quiet "$@" \
    >>"$log" 2>&1 || record "$case cpu" FAIL "cpu reference failed"
}

strategies=(atomic tile16 tile32 scatter16 adaptive)
synth uniform --distribution uniform --count 300000 --width 1000 --height 700 --seed 11 --chunk-events 4096
synth hotspot --distribution hotspot --count 300000 --width 1000 --height 700 --seed 12 --chunk-events 4096
synth mixed --distribution mixed --count 100000 --width 999 --height 701 --seed 13 --chunk-events 4096
synth edges --distribution mixed --count 20000 --width 37 --height 23 --seed 14 --chunk-events 1000
synth direct --distribution mixed --count 5000 --width 333 --height 201 --seed 15 --chunk-events 1000
for case in uniform hotspot mixed edges; do
  reference "$case"
  for strategy in "${strategies[@]}"; do
    check "$case" "$strategy"                                     # one large batch
    check "$case" "$strategy" STARLENS_GPU_BATCH_EVENTS=10000     # many batches, chunks split across them
  done
done
# Scratch split into rounds (every tile-strategy batch), and long lists merged in a second pass.
for strategy in tile16 tile32 scatter16 adaptive; do
  check hotspot "$strategy" STARLENS_GPU_BATCH_EVENTS=50000 STARLENS_GPU_TILE_REFERENCES=3000
  check mixed "$strategy" STARLENS_GPU_TILE_REFERENCES=3000
done
# Every event evaluated exactly on both sides.
reference direct --psf-direct
for strategy in "${strategies[@]}"; do
  check direct "$strategy" STARLENS_GPU_BATCH_EVENTS=2000 -- --psf-direct
done

# A replay of a GPU run (--from-manifest): the GPU sums in another order each run, so the frame's
# last bits differ; the replay compares it with the recorded frame within the budget (and the
# PNG within one 8-bit level) and exits 0.
note "replay of a GPU run"
timeout "$run_timeout" "$splat" -i "$work/mixed.sle" -o "$work/replayed.exr" --png "$work/replayed.png" \
  --backend gpu --force --quiet >>"$log" 2>&1
(cd "$work" && timeout "$run_timeout" "$splat" --from-manifest "$work/replayed.exr.manifest.json" \
  >"$work/replay.json" 2>"$work/replay.err")
status=$?
cat "$work/replay.json" "$work/replay.err" >>"$log"
if [ "$status" = 0 ] && grep -q "outputs and counts match" "$work/replay.err"; then
  record "replay of a GPU run" ok "$(tail -c 100 "$work/replay.err")"
else
  record "replay of a GPU run" FAIL "exit $status: $(tail -c 200 "$work/replay.err")"
fi

# compute-sanitizer on a small case, every strategy, small batches and rounds. Scratch for 1000
# references a round: racecheck's own host memory grows with the launches (30 GB for tile16
# here); with 200, once rounds were cut from the per-event bound, it passed the H200 host's
# 128 GB and the run was killed.
synth small --distribution mixed --count 1500 --width 90 --height 61 --seed 16 --chunk-events 500
for tool in memcheck racecheck initcheck synccheck; do
  for strategy in atomic tile16 tile32 scatter16; do
    label="compute-sanitizer $tool $strategy"
    note "$label"
    extra=()
    [ "$tool" = memcheck ] && extra=(--leak-check full)
    if STARLENS_GPU_BATCH_EVENTS=1000 STARLENS_GPU_TILE_REFERENCES=1000 timeout "$sanitizer_timeout" \
        compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 9 "$splat" \
        -i "$work/small.sle" -o "$work/small.exr" \
        --backend gpu --gpu-strategy "$strategy" --force --quiet >"$work/sanitizer.log" 2>&1; then
      record "$label" ok "$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/sanitizer.log")"
    else
      record "$label" FAIL "$(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY|error' "$work/sanitizer.log")"
    fi
    cat "$work/sanitizer.log" >>"$log"
  done
done

mkdir -p "$work/manifests" && cp "$work"/*.manifest.json "$work/manifests/" 2>/dev/null
tar -czf "$out/manifests.tar.gz" -C "$work" manifests
{
  echo
  echo "GPU checks of $splat: $((${#summary[@]} - failures)) ok, $failures failed"
  printf '%s\n' "${summary[@]}"
} | tee "$out/summary.txt"
exit $((failures > 0))
