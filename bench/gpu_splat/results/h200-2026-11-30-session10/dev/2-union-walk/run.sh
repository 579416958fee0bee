set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/r20; mkdir -p $W $OUT/r
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
cpu=$(python3 -c "import json;print(json.load(open('$W/m.cpu.exr.manifest.json'))['counts']['contributions'])")
check() { name=$1; shift; "$@" -i $W/m.sle -o $W/m.exr --backend gpu --quiet --force
  r=$($B/starlens-compare $W/m.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/c.txt; echo rc=$?; grep -iE "max_rel|relative" $W/c.txt | head -2 | tr '\n' ' ')
  g=$(python3 -c "import json;print(json.load(open('$W/m.exr.manifest.json'))['counts']['contributions'])")
  echo "$name: $r contributions gpu $g cpu $cpu" >> $OUT/r/checks.txt; }
for s in scatter16 tile16 tile32 adaptive; do check "default $s" $B/starlens-splat --gpu-strategy $s; done
for s in scatter16 tile16; do check "small batches/rounds $s" env STARLENS_GPU_BATCH_EVENTS=50000 STARLENS_GPU_TILE_REFERENCES=20000 STARLENS_GPU_SCATTER_SEGMENT=64 $B/starlens-splat --gpu-strategy $s; done
check "order 2 scatter16" env STARLENS_GPU_LIST_ORDER=2 $B/starlens-splat --gpu-strategy scatter16
check "lb6 scatter16" $B/splat-lb6 --gpu-strategy scatter16
check "lb7 scatter16" $B/splat-lb7 --gpu-strategy scatter16
check "ungrouped scatter16" env STARLENS_EXPERIMENT_GROUPED=0 $B/starlens-splat --gpu-strategy scatter16
cat $OUT/r/checks.txt
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab base=$D/base.sh o8=$D/o8.sh o1g=$D/o1g.sh o8g=$D/o8g.sh o8g6=$D/o8g6.sh o8g7=$D/o8g7.sh > $OUT/r/ab.out 2>&1
cut -c1-140 $OUT/r/ab/ab-table.txt
cd $OUT && tar czf r.tgz r && rm -rf r
