set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/l; mkdir -p $OUT/r $W
# correctness first: lanes (tile32 path) against the CPU on the mixed, edge and hot-spot cases
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-synth-events --distribution hotspot --count 300000 --width 1000 --height 700 --seed 12 -o $W/h.sle --quiet --force
$B/starlens-synth-events --distribution mixed --count 20000 --width 37 --height 23 --seed 14 -o $W/e.sle --quiet --force
for c in m h e; do
  $B/starlens-splat -i $W/$c.sle -o $W/$c.cpu.exr --backend cpu --quiet --force
  for env in "" "STARLENS_GPU_BATCH_EVENTS=10000" "STARLENS_GPU_TILE_REFERENCES=3000"; do
    env $env STARLENS_EXPERIMENT_LANES=1 timeout 60 $B/splat-lanes -i $W/$c.sle -o $W/$c.exr --backend gpu --gpu-strategy tile32 --quiet --force
    r=$($B/starlens-compare $W/$c.exr $W/$c.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json 2>&1 | grep -E "^Y |budget" | tr -s ' ' | tr '\n' ' ')
    n=$(python3 -c "import json;a=json.load(open('$W/$c.exr.manifest.json'))['counts']['contributions'];b=json.load(open('$W/$c.cpu.exr.manifest.json'))['counts']['contributions'];print(a,b,a==b)")
    echo "$c [$env]: $r counts $n" | tee -a $OUT/r/checks.txt
  done
done
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16 tile32" WORK=/tmp/ab timeout 300 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab main=$D/main.sh lanes=$D/lanes.sh > $OUT/r/ab.out 2>&1
tail -10 $OUT/r/ab.out
cd $OUT && tar czf r.tgz r && rm -rf r
