set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/p; mkdir -p $W
(time bash tests/gpu/run_on_device.sh $B $OUT/checks) > $OUT/checks.log 2>&1
tail -3 $OUT/checks.log
EVENTS=20000000 STRATEGIES="scatter16" ROUNDS=2 WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab base=$B/splat-base p1=$B/splat-p1 > $OUT/ab.log 2>&1
cut -c1-110 $OUT/ab/ab-table.txt
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet --force
timeout 200 ncu --kernel-name regex:scatter_accumulate --launch-skip 0 --launch-count 1 --set full --import-source no \
  -o $OUT/prof $B/splat-p1 -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/ncu.log 2>&1
ncu -i $OUT/prof.ncu-rep --page details > $OUT/details.txt 2>&1
ncu -i $OUT/prof.ncu-rep --page source --print-source sass --csv > $OUT/source.csv 2>&1
rm -f $OUT/prof.ncu-rep
grep -E "Duration|Issue Slots Busy|Achieved Occ|Registers Per" $OUT/details.txt
