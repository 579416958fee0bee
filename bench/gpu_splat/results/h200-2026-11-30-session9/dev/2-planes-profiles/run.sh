set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/r10; mkdir -p $W
# 1. correctness of the new variants against the CPU
for d in uniform hotspot mixed; do
  $B/starlens-synth-events --distribution $d --count 300000 --width 999 --height 701 --seed 7 -o $W/$d.sle --quiet --force
  $B/starlens-splat -i $W/$d.sle -o $W/$d.cpu.exr --backend cpu --quiet --force
  for v in planes planespairs; do for s in scatter16 atomic tile16; do for cfg in 2097152:0 10000:3000; do
    batch=${cfg%:*} refs=${cfg#*:}
    STARLENS_GPU_BATCH_EVENTS=$batch STARLENS_GPU_TILE_REFERENCES=$refs STARLENS_GPU_SCATTER_SEGMENT=64 $B/splat-$v -i $W/$d.sle -o $W/$d.$v.exr --backend gpu --gpu-strategy $s --quiet --force 2>&1
    $B/starlens-compare $W/$d.$v.exr $W/$d.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json --report $W/r.json --force >/dev/null 2>&1 && r=ok || r=FAIL
    c=$(python3 -c "import json;a=json.load(open('$W/$d.$v.exr.manifest.json'))['counts']['contributions'];b=json.load(open('$W/$d.cpu.exr.manifest.json'))['counts']['contributions'];print('same' if a==b else f'DIFF {a} {b}')")
    echo "check $d $v $s batch $batch refs $refs: $r contributions $c $(python3 tests/gpu/report_line.py $W/r.json 2>&1 | head -c 150)"
  done; done; done
done > $OUT/variants-check.txt 2>&1
grep -c ": ok contributions same" $OUT/variants-check.txt; grep -v ": ok contributions same" $OUT/variants-check.txt | head
# 2. A/B
A=""; for v in base chords pairs planes planespairs; do A="$A $v=$B/splat-$v"; done
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab $A > $OUT/ab.out 2>&1; cat $OUT/ab/ab-table.txt
python3 - $OUT/ab/ab.jsonl <<'PY' > $OUT/ab-phases.txt
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    print(r.get('run', ''), {k: r[k] for k in r if k in ('distribution','strategy','binning_s','accumulate_s','cached_s','timings_s')})
PY
# 3. profiles of one batch (3M events)
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet --force
for v in base planespairs chords; do
timeout 150 ncu --kernel-name regex:"scatter_accumulate|prepare_events" --launch-count 2 --set full --import-source no \
  -o $OUT/prof-$v $B/splat-$v -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/ncu-$v.log 2>&1
ncu -i $OUT/prof-$v.ncu-rep --page details > $OUT/details-$v.txt 2>&1
ncu -i $OUT/prof-$v.ncu-rep --page source --print-source sass --csv --kernel-name regex:scatter > $OUT/source-$v.csv 2>&1
rm -f $OUT/prof-$v.ncu-rep
done
