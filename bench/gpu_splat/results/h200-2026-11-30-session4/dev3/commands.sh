set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/d3; mkdir -p $W
for d in mixed hotspot; do
  $B/starlens-synth-events --distribution $d --count 300000 --width 999 --height 701 --seed 7 -o $W/$d.sle --quiet
  $B/starlens-splat -i $W/$d.sle -o $W/$d.cpu.exr --backend cpu --quiet --force
  for v in E mb3 mb4 patch patchmb3; do
    for strategy in scatter16 tile16; do
      STARLENS_GPU_BATCH_EVENTS=10000 $B/splat-$v -i $W/$d.sle -o $W/$d.$v.exr --backend gpu --gpu-strategy $strategy --quiet --force 2>&1
      $B/starlens-compare $W/$d.$v.exr $W/$d.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json --report $W/r.json --force >/dev/null 2>&1 && r=ok || r=FAIL
      c=$(python3 -c "import json;a=json.load(open('$W/$d.$v.exr.manifest.json'))['counts'];b=json.load(open('$W/$d.cpu.exr.manifest.json'))['counts'];k=('contributions','contributions_direct','events_direct');print('same' if all(a.get(x)==b.get(x) for x in k) else f'DIFF {a} {b}')")
      echo "check $d $v $strategy: $r counts $c $(python3 tests/gpu/report_line.py $W/r.json 2>&1 | head -c 150)"
    done
  done
done | tee $OUT/variants-check.txt
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab20M C=$B/splat-C E=$B/splat-E mb3=$B/splat-mb3 mb4=$B/splat-mb4 patch=$B/splat-patch patchmb3=$B/splat-patchmb3 > $OUT/ab20M.out 2>&1; cat $OUT/ab20M/ab-table.txt
