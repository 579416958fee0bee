set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/l7; mkdir -p $OUT/r $W
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-synth-events --distribution mixed --count 20000 --width 37 --height 23 --seed 14 -o $W/e.sle --quiet --force
for c in m e; do
  $B/starlens-splat -i $W/$c.sle -o $W/$c.cpu.exr --backend cpu --quiet --force
  for v in b256 b1024; do for env in "" "STARLENS_GPU_BATCH_EVENTS=10000" "STARLENS_GPU_TILE_REFERENCES=3000"; do
    env $env timeout 60 $D/$v.sh -i $W/$c.sle -o $W/$c.exr --backend gpu --gpu-strategy tile16 --quiet --force
    r=$($B/starlens-compare $W/$c.exr $W/$c.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json 2>&1 | grep -E "^Y |budget" | tr -s ' ' | tr '\n' ' ')
    n=$(python3 -c "import json;a=json.load(open('$W/$c.exr.manifest.json'))['counts']['contributions'];b=json.load(open('$W/$c.cpu.exr.manifest.json'))['counts']['contributions'];print(a,b,a==b)")
    echo "$c $v [$env]: $r counts $n" | tee -a $OUT/r/checks.txt
  done; done
done
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16 tile16" WORK=/tmp/ab timeout 300 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab t16=$D/t16.sh b256=$D/b256.sh b1024=$D/b1024.sh > $OUT/r/ab.out 2>&1
grep -v "t16-scatter16\|b256-scatter16" $OUT/r/ab.out | tail -12
cd $OUT && tar czf r.tgz r && rm -rf r
