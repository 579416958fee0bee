set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
(time bash tests/gpu/run_on_device.sh $B $OUT/checks) > $OUT/checks.log 2>&1
grep -c "^ok\|	ok" $OUT/checks/*.txt 2>/dev/null | head -3 >> $OUT/checks.log
EVENTS=20000000 STRATEGIES="scatter16 halo16" ROUNDS=2 WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab cur=$B/starlens-splat > $OUT/ab.log 2>&1
W=/tmp/k; mkdir -p $W
$B/starlens-synth-events --distribution uniform --count 6000000 --width 1920 --height 1080 --seed 2026 -o $W/u.sle --quiet --force
for s in scatter16 halo16; do
ncu --metrics gpu__time_duration.sum,sm__inst_executed.sum --launch-skip 12 --launch-count 14 $B/starlens-splat -i $W/u.sle -o $W/f.exr --backend gpu --gpu-strategy $s --force --quiet > $OUT/ncu-$s.txt 2>&1
done
ls -la $OUT
