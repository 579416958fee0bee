#!/usr/bin/env bash
# bench/gpu_splat/direct_caps.sh: several builds of starlens-splat, alternately, on one
# direct-heavy stream (mixed events at a low visibility floor, so that direct supports reach
# --psf-max-radius): each build's direct-kernel time on the GPU, and the CPU backend's for the
# CPU_BUILDS named; every GPU frame checked against the first CPU frame at the GPU-vs-CPU budget.
# usage: bench/gpu_splat/direct_caps.sh BUILD OUT_DIR NAME=SPLAT_BINARY...
#   BUILD: a build folder with starlens-synth-events and starlens-compare
#   env: EVENTS (8000000), MIN_Y (1e-10), ROUNDS (2), CPU_BUILDS (names, default none),
#        THREADS (nproc), WORK (/dev/shm/starlens-direct-caps)
set -uo pipefail
build=$(realpath "$1") out=$(realpath -m "$2")
shift 2
here=$(dirname "$(realpath "$0")")
work=${WORK:-/dev/shm/starlens-direct-caps}
mkdir -p "$out" "$work"
results=$out/direct_caps.txt
: >"$results"
"$build/bench/synth_events/starlens-synth-events" --distribution mixed --count "${EVENTS:-8000000}" \
  --psf-min-y "${MIN_Y:-1e-10}" --seed 7 -o "$work/mixed.sle" --force --quiet || exit 1
row() {  # name backend manifest wall
  python3 - "$@" <<'PY'
import json, sys
name, backend, path, wall = sys.argv[1:5]
m = json.load(open(path))
t = m.get("timings_s", {}); c = m.get("counts", {})
print(f"{name:6} {backend:4} wall {float(wall):7.2f}  direct {t.get('accumulate_direct', 0):7.3f}  "
      f"cache {t.get('accumulate_cache', t.get('accumulate', 0)):7.3f}  direct_cpu {t.get('accumulate_direct_cpu', 0):8.2f}  "
      f"binning {t.get('binning', 0):6.2f}  contrib_direct {c.get('contributions_direct', 0)}  rss {m['host'].get('peak_rss_bytes', 0)/1e6:.0f} MB")
PY
}
run() {  # name binary backend extra...
  local name=$1 binary=$2 backend=$3
  shift 3
  local start end
  start=$(date +%s.%N)
  "$binary" -i "$work/mixed.sle" -o "$work/$name-$backend.exr" --backend "$backend" --force --quiet "$@" ||
    { echo "FAILED $name $backend" | tee -a "$results"; return; }
  end=$(date +%s.%N)
  row "$name" "$backend" "$work/$name-$backend.exr.manifest.json" "$(python3 -c "print($end - $start)")" |
    tee -a "$results"
}
for round in $(seq "${ROUNDS:-2}"); do
  for build_arg in "$@"; do run "${build_arg%%=*}" "${build_arg#*=}" gpu; done
done
reference=""
for round in $(seq "${ROUNDS:-2}"); do
  for build_arg in "$@"; do
    name=${build_arg%%=*}
    [[ " ${CPU_BUILDS:-} " == *" $name "* ]] || continue
    run "$name" "${build_arg#*=}" cpu --threads "${THREADS:-$(nproc)}"
    reference=${reference:-$work/$name-cpu.exr}
  done
done
if [ -n "$reference" ]; then
  for build_arg in "$@"; do
    name=${build_arg%%=*}
    "$build/tools/compare/starlens-compare" "$work/$name-gpu.exr" "$reference" \
      --budget "$here/../../tests/tools/splat/gpu/gpu_vs_cpu_budget.json" >"$work/compare-$name.txt" 2>&1
    echo "compare $name-gpu vs $(basename "$reference"): exit $? $(tail -c 300 "$work/compare-$name.txt" | tr '\n' ' ')" |
      tee -a "$results"
  done
fi
rm -f "$work/mixed.sle"
