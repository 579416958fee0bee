#!/usr/bin/env bash
# bench/gpu_splat: the GPU splat backend on one machine with a GPU (docs/gpu.md, docs/BENCHMARKS.md).
# Every strategy and the CPU backend (all cores) on uniform and hot-spot events: bounded replays
# of 4,096 / 16,384 / 65,536 events (median of REPEAT) and a LARGE-event stream (10^8 events,
# 5.6 GB, generated here with starlens-synth-events) from file to frame. Reports contributions
# and events per second, per-phase times and the adaptive selector's choices.
# usage: bench/gpu_splat/run.sh BIN_DIR OUT_DIR
#   BIN_DIR: starlens-splat (built with -Dgpu=cuda|hip) and starlens-synth-events.
#   env: WIDTH HEIGHT (1920 x 1080, as bench/splat_cpu), REPEAT (5), LARGE (100000000; 0 skips), WORK (scratch
#   folder, needs 2 x 5.6 GB), SMALL_COUNTS ("4096 16384 65536"), CPU_LARGE (1: also the CPU),
#   BATCHES (e.g. "65536 1048576": also every GPU strategy at these batch sizes, on the
#   largest small count; for tuning), DIRECT_COUNT (1000000; 0 skips: the direct-heavy case,
#   the mixed field at --psf-min-y 1e-10, whose bright stars' supports reach far beyond the
#   cache radius; the table's direct_s and its Gc/s are the direct kernel's), STRATEGIES (the
#   GPU strategies, default all five), VULKAN (1: also --backend vulkan, adaptive and atomic,
#   after the CPU on each stream (small, direct-heavy and large), each frame compared with the CPU's at the
#   GPU-vs-CPU budget into compare.txt; the loader and driver as the machine provides them).
# Writes OUT_DIR/results.jsonl (one line per run), table.txt, clocks.csv (GPU clocks and load
# every 250 ms) and manifests.tar.gz.
set -uo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
here=$(dirname "$(realpath "$0")")
width=${WIDTH:-1920} height=${HEIGHT:-1080} repeat=${REPEAT:-5} large=${LARGE:-100000000}
small_counts=${SMALL_COUNTS:-"4096 16384 65536"}
work=${WORK:-/tmp/starlens-bench-gpu}
mkdir -p "$out" "$work/manifests"
results=$out/results.jsonl
: >"$results"
read -r -a strategies <<<"${STRATEGIES:-adaptive atomic tile16 tile32 scatter16}"
budget=$here/../../tests/tools/splat/gpu/gpu_vs_cpu_budget.json
: >"$out/compare.txt"

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  echo "splat: $("$bin/starlens-splat" --version 2>&1 | head -3 | tr '\n' ' ')"
  echo "frame: $width x $height; repeat: $repeat"
} | tee "$out/machine.txt"

# The GPU's clocks and load through the whole benchmark (is it ever held back?).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv \
  -lms 250 >"$out/clocks.csv" 2>/dev/null &
clocks_pid=$!
trap 'kill $clocks_pid 2>/dev/null' EXIT

# run DISTRIBUTION EVENTS STREAM BACKEND STRATEGY REPEAT
run() {
  local distribution=$1 events=$2 stream=$3 backend=$4 strategy=$5 replays=$6
  local name=$distribution-$events-$backend-$strategy${STARLENS_GPU_BATCH_EVENTS:+-batch$STARLENS_GPU_BATCH_EVENTS}
  local frame=$work/$name.exr
  local start=$(date +%s.%N)
  echo "run $name: $(date -u +%T)"
  if ! "$bin/starlens-splat" -i "$stream" -o "$frame" --backend "$backend" --gpu-strategy "$strategy" \
      --repeat "$replays" --force --quiet 2>"$work/stderr"; then
    echo "{\"run\": \"$name\", \"error\": $(python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))' <"$work/stderr")}" >>"$results"
    echo "FAILED: $name: $(cat "$work/stderr")"
    return
  fi
  local wall
  wall=$(python3 -c "import time; print(time.time() - $start)")
  cp "$frame.manifest.json" "$work/manifests/$name.manifest.json"
  python3 "$here/result_line.py" "$frame.manifest.json" "$distribution" "$backend" "$strategy" "$wall" >>"$results"
  if [ "$backend" = cpu ] && [ "${VULKAN:-0}" = 1 ]; then
    mv "$frame" "$work/$distribution-$events-reference.exr"
  elif [ -f "$work/$distribution-$events-reference.exr" ]; then
    "$bin/starlens-compare" "$frame" "$work/$distribution-$events-reference.exr" --budget "$budget" \
      --report "$work/compare.json" --force >/dev/null 2>"$work/stderr"
    echo "$name against the CPU: exit $? $(python3 "$here/../../tests/tools/splat/gpu/report_line.py" \
      "$work/compare.json" 2>&1) $(cat "$work/stderr")" >>"$out/compare.txt"
  fi
  rm -f "$frame"
}

# synth DISTRIBUTION EVENTS STREAM [SYNTH OPTIONS...]
synth() {
  local start=$(date +%s.%N)
  "$bin/starlens-synth-events" --distribution "$1" --count "$2" --width "$width" --height "$height" \
    --seed 2026 -o "$3" "${@:4}" --force --quiet || echo "FAILED: synth $1 $2"
  echo "synth $1 $2: $(date -u +%T) $(python3 -c "import time; print(round(time.time() - $start, 2))") s, $(stat -c %s "$3") bytes"
}

for distribution in uniform hotspot; do
  for events in $small_counts; do
    stream=$work/$distribution-$events.sle
    synth "$distribution" "$events" "$stream"
    run "$distribution" "$events" "$stream" cpu adaptive "$repeat"
    for strategy in "${strategies[@]}"; do run "$distribution" "$events" "$stream" gpu "$strategy" "$repeat"; done
    if [ "${VULKAN:-0}" = 1 ]; then
      for strategy in adaptive atomic; do run "$distribution" "$events" "$stream" vulkan "$strategy" "$repeat"; done
    fi
  done
  for batch in ${BATCHES:-}; do
    for strategy in "${strategies[@]}"; do
      STARLENS_GPU_BATCH_EVENTS=$batch run "$distribution" "$events" "$stream" gpu "$strategy" "$repeat"
    done
  done
done

direct_count=${DIRECT_COUNT:-1000000}
if [ "$direct_count" -gt 0 ]; then
  stream=$work/direct-$direct_count.sle
  synth mixed "$direct_count" "$stream" --psf-min-y 1e-10
  run direct "$direct_count" "$stream" cpu adaptive "$repeat"
  for strategy in "${strategies[@]}"; do run direct "$direct_count" "$stream" gpu "$strategy" "$repeat"; done
  if [ "${VULKAN:-0}" = 1 ]; then
    for strategy in adaptive atomic; do run direct "$direct_count" "$stream" vulkan "$strategy" "$repeat"; done
  fi
  rm -f "$stream"
fi

if [ "$large" -gt 0 ]; then
  for distribution in uniform hotspot; do
    stream=$work/$distribution-large.sle
    synth "$distribution" "$large" "$stream"
    # The first read of a file just written may come from the page cache: the adaptive run
    # goes twice, the second is the one reported as "from file to frame".
    for strategy in "${strategies[@]}" adaptive; do run "$distribution" "$large" "$stream" gpu "$strategy" 1; done
    [ "${CPU_LARGE:-1}" = 1 ] && run "$distribution" "$large" "$stream" cpu adaptive 1
    if [ "${VULKAN:-0}" = 1 ]; then
      for strategy in adaptive atomic; do run "$distribution" "$large" "$stream" vulkan "$strategy" 1; done
    fi
    rm -f "$stream"
  done
fi

python3 "$here/table.py" "$results" | tee "$out/table.txt"
tar -czf "$out/manifests.tar.gz" -C "$work" manifests
