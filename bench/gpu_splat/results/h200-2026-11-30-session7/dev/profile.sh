set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/p; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
cuobjdump -sass -fun scatter_accumulate_kernel $B/starlens-splat > $OUT/scatter.sass 2>&1 || cuobjdump -sass $B/starlens-splat > $OUT/all.sass
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet
timeout 300 ncu --kernel-name regex:scatter_accumulate --launch-skip 1 --launch-count 1 --set full --import-source no \
  -o $OUT/scatter $B/starlens-splat -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/ncu.log 2>&1
ncu -i $OUT/scatter.ncu-rep --page details > $OUT/details.txt 2>&1
ncu -i $OUT/scatter.ncu-rep --page source --print-source sass --csv > $OUT/source.csv 2>&1
ncu -i $OUT/scatter.ncu-rep --page raw --csv > $OUT/raw.csv 2>&1
ls -la $OUT
