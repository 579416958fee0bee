set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/l8; mkdir -p $OUT/r $W
EVENTS=20000000 ROUNDS=2 STRATEGIES="tile16" WORK=/tmp/ab timeout 300 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab w8=$D/w8.sh w4=$D/w4.sh w16=$D/w16.sh w8s2048=$D/w8s2048.sh > $OUT/r/ab.out 2>&1
tail -17 $OUT/r/ab.out
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u.sle --quiet --force
STARLENS_EXPERIMENT_BALLOT=8 STARLENS_EXPERIMENT_SEGMENT16=1024 timeout 200 ncu --kernel-name regex:tile16_ballot --launch-count 1 --section SpeedOfLight --section WarpStateStats --section InstructionStats --section Occupancy --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis --import-source no \
  -o $W/b $B/splat-ballot -i $W/u.sle -o $W/f.exr --backend gpu --gpu-strategy tile16 --force --quiet > $OUT/r/ncu.log 2>&1
ncu -i $W/b.ncu-rep --page details > $OUT/r/details.txt 2>&1
ncu -i $W/b.ncu-rep --page source --csv --print-source sass > $OUT/r/sass.csv 2>&1
grep -E "Duration|Issue Slots Busy|Achieved Occupancy|Warp Cycles Per Issued|L1/TEX Cache Throughput|Executed Instructions |Avg. Active Threads" $OUT/r/details.txt | head -20
cd $OUT && tar czf r.tgz r && rm -rf r
