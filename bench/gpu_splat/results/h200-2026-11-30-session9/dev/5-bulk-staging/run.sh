set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/r16; mkdir -p $W $W/o
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
for v in bulk bulk7; do for cfg in default small; do
  if [ $cfg = small ]; then export STARLENS_GPU_BATCH_EVENTS=10000 STARLENS_GPU_TILE_REFERENCES=3000 STARLENS_GPU_SCATTER_SEGMENT=64; fi
  timeout 60 $B/splat-$v -i $W/m.sle -o $W/m.$v.exr --backend gpu --gpu-strategy scatter16 --quiet --force; rc=$?
  unset STARLENS_GPU_BATCH_EVENTS STARLENS_GPU_TILE_REFERENCES STARLENS_GPU_SCATTER_SEGMENT
  $B/starlens-compare $W/m.$v.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/cmp.txt 2>&1; c=$?
  echo "check $v $cfg: run rc $rc compare rc $c $(python3 -c "import json;a=json.load(open('$W/m.$v.exr.manifest.json'))['counts']['contributions'];b=json.load(open('$W/m.cpu.exr.manifest.json'))['counts']['contributions'];print('same' if a==b else f'DIFF {a} {b}')") $(tail -1 $W/cmp.txt)"
done; done | tee $W/o/checks.txt
$B/starlens-synth-events --distribution mixed --count 1500 --width 90 --height 61 --seed 16 --chunk-events 500 -o $W/small.sle --quiet --force
for tool in memcheck racecheck synccheck; do
  STARLENS_GPU_BATCH_EVENTS=1000 STARLENS_GPU_TILE_REFERENCES=1000 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $B/splat-bulk -i $W/small.sle -o $W/small.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $W/san.log 2>&1; echo "sanitizer $tool bulk: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/san.log)"
done | tee -a $W/o/checks.txt
A=""; for v in base bulk bulk7; do A="$A $v=$B/splat-$v"; done
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab1 timeout 200 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $W/o/ab $A > $W/o/ab.out 2>&1; cut -c1-100 $W/o/ab/ab-table.txt
tar czf $OUT/r16.tgz -C $W/o .
