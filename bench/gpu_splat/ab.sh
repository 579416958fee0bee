#!/usr/bin/env bash
# bench/gpu_splat/ab.sh: several builds of starlens-splat, alternately, on the same uniform and
# hot-spot streams (GPU strategies), for comparing a kernel change as a ratio within one run
# on the shared machine (docs/gpu.md). Not a replacement for run.sh's full benchmark.
# usage: bench/gpu_splat/ab.sh SYNTH_EVENTS OUT_DIR NAME=SPLAT_BINARY...
#   env: EVENTS (20000000), STRATEGIES ("scatter16 atomic adaptive"), ROUNDS (2), WORK (scratch)
set -uo pipefail
synth=$(realpath "$1") out=$(realpath -m "$2")
shift 2
here=$(dirname "$(realpath "$0")")
events=${EVENTS:-20000000} rounds=${ROUNDS:-2}
work=${WORK:-/tmp/starlens-ab}
mkdir -p "$out" "$work"
results=$out/ab.jsonl
: >"$results"
for distribution in uniform hotspot; do
  stream=$work/$distribution-$events.sle
  "$synth" --distribution "$distribution" --count "$events" --width 1920 --height 1080 --seed 2026 \
    -o "$stream" --force --quiet || { echo "FAILED: synth $distribution"; continue; }
  for round in $(seq "$rounds"); do
    for strategy in ${STRATEGIES:-scatter16 atomic adaptive}; do
      for build in "$@"; do
        name=${build%%=*} binary=${build#*=}
        frame=$work/$name.exr
        start=$(date +%s.%N)
        if ! "$binary" -i "$stream" -o "$frame" --backend gpu --gpu-strategy "$strategy" --force \
            --quiet 2>"$work/stderr"; then
          echo "FAILED: $name $distribution $strategy: $(cat "$work/stderr")"
          continue
        fi
        wall=$(python3 -c "import time; print(time.time() - $start)")
        python3 "$here/result_line.py" "$frame.manifest.json" "$distribution" gpu "$name-$strategy" \
          "$wall" >>"$results"
      done
    done
  done
  rm -f "$stream"
done
python3 "$here/table.py" "$results" | tee "$out/ab-table.txt"
