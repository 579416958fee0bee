set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/r26; mkdir -p $W $OUT/r
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
cpu=$(python3 -c "import json;print(json.load(open('$W/m.cpu.exr.manifest.json'))['counts']['contributions'])")
check() { name=$1; shift; "$@" -i $W/m.sle -o $W/m.exr --backend gpu --quiet --force
  r=$($B/starlens-compare $W/m.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/c.txt; echo rc=$?)
  g=$(python3 -c "import json;print(json.load(open('$W/m.exr.manifest.json'))['counts']['contributions'])")
  echo "$name: $r contributions gpu $g cpu $cpu" >> $OUT/r/checks.txt; }
for st in scatter16 tile16 tile32 atomic adaptive; do check "d80 $st" $B/splat-d80 --gpu-strategy $st; done; check "d72 scatter16" $B/splat-d72 --gpu-strategy scatter16
check "d80 small batches/rounds" env STARLENS_GPU_BATCH_EVENTS=50000 STARLENS_GPU_TILE_REFERENCES=20000 STARLENS_GPU_SCATTER_SEGMENT=64 $B/splat-d80 --gpu-strategy scatter16
cat $OUT/r/checks.txt
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16 tile16 atomic" WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab main=$D/main.sh d80=$D/d80.sh d72=$D/d72.sh > $OUT/r/ab.out 2>&1
cut -c1-150 $OUT/r/ab/ab-table.txt
cd $OUT && tar czf r.tgz r && rm -rf r
