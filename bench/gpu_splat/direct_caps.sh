#!/usr/bin/env bash
# Direct-evaluator A/B on the H200 machine: the old splat and the new one at register caps,
# alternately, on one direct-heavy stream; GPU then CPU. Results to $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib
B=.device/build; V=.device/variants; W=/dev/shm/exp; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc; free -g | head -2
$B/bench/synth_events/starlens-synth-events --distribution mixed --count 8000000 --psf-min-y 1e-10 \
  --seed 7 -o $W/mixed.sle --force --quiet || exit 1
ls -la $W/mixed.sle
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
run() {  # name backend extra...
  local name=$1 backend=$2; shift 2
  local s=$(date +%s.%N)
  $V/splat-$name -i $W/mixed.sle -o $W/$name-$backend.exr --backend $backend --force --quiet "$@" || { echo "FAILED $name $backend"; return; }
  local e=$(date +%s.%N)
  row $name $backend $W/$name-$backend.exr.manifest.json $(python3 -c "print($e-$s)") | tee -a $OUT/exp.txt
}
for round in 1 2; do for v in old c6 c4 c3 c2; do run $v gpu; done; done
for round in 1 2; do for v in old c6; do run $v cpu --threads 16; done; done
cp tests/tools/splat/gpu/gpu_vs_cpu_budget.json $W/budget.json
for v in c6 c4 c3 c2; do
  $B/tools/compare/starlens-compare $W/$v-gpu.exr $W/c6-cpu.exr --budget $W/budget.json > $W/cmp-$v.txt 2>&1; echo "compare $v-gpu vs c6-cpu: exit $? $(tail -c 300 $W/cmp-$v.txt | tr '\n' ' ')" | tee -a $OUT/exp.txt
done
$B/tools/compare/starlens-compare $W/old-cpu.exr $W/c6-cpu.exr --budget $W/budget.json > $W/cmp-cpu.txt 2>&1; echo "compare old-cpu vs c6-cpu: exit $? $(tail -c 300 $W/cmp-cpu.txt | tr '\n' ' ')" | tee -a $OUT/exp.txt
cp $W/*.manifest.json $OUT/ 2>/dev/null | head -0
ls $OUT | head
