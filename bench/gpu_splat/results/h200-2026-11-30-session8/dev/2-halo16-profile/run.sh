set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/p; mkdir -p $W
cuobjdump -sass -fun halo_accumulate_kernel $B/splat-v1 > $OUT/halo.sass 2>&1
EVENTS=20000000 STRATEGIES="halo16" ROUNDS=2 WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab v0=$B/splat-v0 v1=$B/splat-v1 > $OUT/ab.log 2>&1
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet --force
timeout 300 ncu --kernel-name regex:halo_accumulate --launch-skip 0 --launch-count 1 --set full --import-source no \
  -o $OUT/halo $B/splat-v1 -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy halo16 --force --quiet > $OUT/ncu.log 2>&1
ncu -i $OUT/halo.ncu-rep --page details > $OUT/details.txt 2>&1
ncu -i $OUT/halo.ncu-rep --page source --print-source sass --csv > $OUT/source.csv 2>&1
rm -f $OUT/halo.ncu-rep
