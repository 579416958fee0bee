set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/p; mkdir -p $W
EVENTS=20000000 STRATEGIES="scatter16" ROUNDS=2 WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab base=$B/splat-base d1=$B/splat-d1 d2=$B/splat-d2 d1b22=$B/splat-d1b22 > $OUT/ab.log 2>&1
cut -c1-130 $OUT/ab/ab-table.txt
# correctness of d1 and d2 against the CPU (mixed: direct events of all sizes)
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
for v in d1 d2 d1b22; do for s in scatter16 atomic; do
$B/splat-$v -i $W/m.sle -o $W/m.$v.exr --backend gpu --gpu-strategy $s --quiet --force
$B/starlens-compare $W/m.$v.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/cmp.txt 2>&1; echo "check $v $s: rc $? $(tail -2 $W/cmp.txt | tr '\n' ' ')"
done; done
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet --force
timeout 150 ncu --kernel-name regex:direct_splat --launch-skip 0 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --section InstructionStats $B/splat-d1 -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/direct-ncu.txt 2>&1
grep -E "Duration|Issue Slots|Achieved Occ|Registers|Grid Size|Avg. Active Threads|Warp Cycles Per Issued|Branch|No Eligible" $OUT/direct-ncu.txt
