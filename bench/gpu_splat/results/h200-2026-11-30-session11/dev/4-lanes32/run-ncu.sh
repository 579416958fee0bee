set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/l6; mkdir -p $OUT/r $W
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u.sle --quiet --force
STARLENS_EXPERIMENT_LANES=1 timeout 300 ncu --kernel-name regex:lanes_accumulate --launch-count 1 --section SpeedOfLight --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy --section SchedulerStats --section SourceCounters --section MemoryWorkloadAnalysis --import-source no \
  -o $W/lanes $B/splat-lanes -i $W/u.sle -o $W/f.exr --backend gpu --gpu-strategy tile32 --force --quiet > $OUT/r/ncu.log 2>&1
ncu -i $W/lanes.ncu-rep --page details > $OUT/r/details.txt 2>&1
ncu -i $W/lanes.ncu-rep --page source --csv --print-source sass > $OUT/r/sass.csv 2>&1
grep -E "Duration|Issue Slots Busy|Executed Ipc|Achieved Occupancy|Registers|Warp Cycles Per Issued|L1/TEX Cache Throughput|Executed Instructions " $OUT/r/details.txt | head -20
ls -la $OUT/r
cd $OUT && tar czf r.tgz r && rm -rf r
