set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/k; mkdir -p $W
$B/starlens-synth-events --distribution uniform --count 6000000 --width 1920 --height 1080 --seed 2026 -o $W/u.sle --quiet --force
for v in ${VARIANTS:-v5}; do
ncu --metrics gpu__time_duration.sum --launch-skip 12 --launch-count 12 $B/splat-$v -i $W/u.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet 2>&1 | grep -E "^  [a-z_A-Z].*\(|gpu__time_duration" | paste - - | sed -E 's/\(([0-9]+), 1, 1\)x\(([0-9]+), 1, 1\).*gpu__time_duration.sum/ \1x\2/' | awk '{print "'$v'", $0}' | tee -a $OUT/kernels.txt
done
