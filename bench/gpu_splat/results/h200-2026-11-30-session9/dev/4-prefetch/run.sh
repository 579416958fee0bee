set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/r12; mkdir -p $W $W/o
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
for v in pf6 pf7; do $B/splat-$v -i $W/m.sle -o $W/m.$v.exr --backend gpu --gpu-strategy scatter16 --quiet --force; $B/starlens-compare $W/m.$v.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json | tail -1; done
A=""; for v in base chords7 pf6 pf7; do A="$A $v=$B/splat-$v"; done
EVENTS=20000000 ROUNDS=3 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $W/o/ab $A > $W/o/ab.out 2>&1; cat $W/o/ab/ab-table.txt
tar czf $OUT/r12.tgz -C $W/o .
