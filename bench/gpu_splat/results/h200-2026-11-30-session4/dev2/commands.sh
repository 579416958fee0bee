set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/d2; mkdir -p $W
# 1. correctness of each scatter variant against the CPU (DESIGN budgets)
for d in uniform hotspot mixed; do
  $B/starlens-synth-events --distribution $d --count 300000 --width 999 --height 701 --seed 7 -o $W/$d.sle --quiet
  $B/starlens-splat -i $W/$d.sle -o $W/$d.cpu.exr --backend cpu --quiet --force
  for v in w4l32 w2l16 w1l8 w2l32; do
    for batch in 1048576 10000; do
      STARLENS_GPU_BATCH_EVENTS=$batch STARLENS_GPU_SCATTER_SEGMENT=64 $B/splat-$v -i $W/$d.sle -o $W/$d.$v.exr --backend gpu --gpu-strategy scatter16 --quiet --force 2>&1
      $B/starlens-compare $W/$d.$v.exr $W/$d.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json --report $W/r.json --force >/dev/null 2>&1 && r=ok || r=FAIL
      c=$(python3 -c "import json;a=json.load(open('$W/$d.$v.exr.manifest.json'))['counts']['contributions'];b=json.load(open('$W/$d.cpu.exr.manifest.json'))['counts']['contributions'];print('same' if a==b else f'DIFF {a} {b}')")
      echo "check $d $v batch $batch: $r contributions $c $(python3 tests/gpu/report_line.py $W/r.json 2>&1 | head -c 150)"
    done
  done
done | tee $OUT/variants-check.txt
# 2. variants A/B
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab20M C=$B/splat-C w4l32=$B/splat-w4l32 w2l16=$B/splat-w2l16 w1l8=$B/splat-w1l8 w2l32=$B/splat-w2l32 > $OUT/ab20M.out 2>&1; cat $OUT/ab20M/ab-table.txt
# 3. file to frame: A (session 3) against now
EVENTS=100000000 ROUNDS=2 STRATEGIES="adaptive" WORK=/tmp/ab2 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab100M A=$B/splat-A D=$B/starlens-splat > $OUT/ab100M.out 2>&1; cat $OUT/ab100M/ab-table.txt
python3 -c "
import json
for l in open('$OUT/ab100M/ab.jsonl'):
    d=json.loads(l); t=d['timings_s']
    print(d['distribution'][:4], d['strategy'], 'total', round(t['total'],3), 'hash', round(t.get('hash',0),3), 'read', round(t['read'],3), 'read_wait', round(t['read_wait'],3), 'staging', round(t['host_staging'],3))
"
# 4. where the kernels' time goes (one batch of 2^20 uniform events)
$B/starlens-synth-events --distribution uniform --count 3000000 --seed 2026 -o $W/u3M.sle --quiet
timeout 200 ncu --kernel-name regex:"prepare|tile_count|tile_scan|tile_fill|scatter_accumulate" --launch-skip 5 --launch-count 5 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  --metrics lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_bytes.sum,dram__bytes.sum,sm__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio \
  $B/starlens-splat -i $W/u3M.sle -o $W/u.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/ncu.txt 2>&1
grep -E "^  [a-z_]+.*\(|Duration|L2 Cache Throughput|lts__t_bytes|sm__inst_executed|Registers|Achieved Occupancy|DRAM Throughput|thread_inst" $OUT/ncu.txt | head -80
