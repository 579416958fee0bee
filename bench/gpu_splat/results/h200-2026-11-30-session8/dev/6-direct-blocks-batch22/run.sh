set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/p; mkdir -p $W
EVENTS=20000000 STRATEGIES="scatter16" ROUNDS=2 WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab base=$B/splat-base e4b22=$B/splat-e4b22 e5b22=$B/splat-e5b22 e6b22=$B/splat-e6b22 > $OUT/ab.log 2>&1
cut -c1-130 $OUT/ab/ab-table.txt
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
for v in e5b22 e6b22; do for s in scatter16; do
$B/splat-$v -i $W/m.sle -o $W/m.$v.exr --backend gpu --gpu-strategy $s --quiet --force
$B/starlens-compare $W/m.$v.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/cmp.txt 2>&1; echo "check $v $s: rc $? $(tail -2 $W/cmp.txt | tr '\n' ' ')"
done; done
