set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/d; mkdir -p $W
VARIANTS=${VARIANTS:-"v1 v2 v3"}
# 1. correctness of each variant against the CPU (DESIGN budgets)
for d in uniform hotspot mixed; do
  $B/starlens-synth-events --distribution $d --count 300000 --width 999 --height 701 --seed 7 -o $W/$d.sle --quiet --force
  $B/starlens-splat -i $W/$d.sle -o $W/$d.cpu.exr --backend cpu --quiet --force
  for v in $VARIANTS; do
    for s in ${CHECK_STRATEGIES:-scatter16 atomic tile16}; do
    for cfg in 2097152:33554432 10000:33554432 10000:3000; do
      batch=${cfg%:*} refs=${cfg#*:}
      STARLENS_GPU_BATCH_EVENTS=$batch STARLENS_GPU_TILE_REFERENCES=$refs STARLENS_GPU_SCATTER_SEGMENT=64 $B/splat-$v -i $W/$d.sle -o $W/$d.$v.exr --backend gpu --gpu-strategy $s --quiet --force 2>&1
      $B/starlens-compare $W/$d.$v.exr $W/$d.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json --report $W/r.json --force >/dev/null 2>&1 && r=ok || r=FAIL
      c=$(python3 -c "import json;a=json.load(open('$W/$d.$v.exr.manifest.json'))['counts']['contributions'];b=json.load(open('$W/$d.cpu.exr.manifest.json'))['counts']['contributions'];print('same' if a==b else f'DIFF {a} {b}')")
      echo "check $d $v $s batch $batch refs $refs: $r contributions $c $(python3 tests/gpu/report_line.py $W/r.json 2>&1 | head -c 150)"
    done; done
  done
done | tee $OUT/variants-check.txt
# 2. A/B
A=""; for v in ${AB_BASE:-base} $VARIANTS; do A="$A $v=$B/splat-$v"; done
EVENTS=${EVENTS:-20000000} ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab $A > $OUT/ab.out 2>&1; cat $OUT/ab/ab-table.txt
# 3. profile
if [ -n "${PROFILE:-}" ]; then
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet --force
timeout 200 ncu --kernel-name regex:scatter_accumulate --launch-skip 1 --launch-count 1 --set full --import-source no \
  -o $OUT/prof-$PROFILE $B/splat-$PROFILE -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/ncu.log 2>&1
ncu -i $OUT/prof-$PROFILE.ncu-rep --page details > $OUT/details-$PROFILE.txt 2>&1
ncu -i $OUT/prof-$PROFILE.ncu-rep --page source --print-source sass --csv > $OUT/source-$PROFILE.csv 2>&1
ncu -i $OUT/prof-$PROFILE.ncu-rep --page raw --csv > $OUT/raw-$PROFILE.csv 2>&1
rm -f $OUT/*.ncu-rep
fi
