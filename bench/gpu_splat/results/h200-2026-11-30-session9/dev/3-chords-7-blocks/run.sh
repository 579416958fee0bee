set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/r11; mkdir -p $W $W/o
A=""; for v in base chords chords7; do A="$A $v=$B/splat-$v"; done
EVENTS=20000000 ROUNDS=3 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $W/o/ab $A > $W/o/ab.out 2>&1; cat $W/o/ab/ab-table.txt
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet --force
for v in chords7; do
timeout 150 ncu --kernel-name regex:"scatter_accumulate" --launch-count 1 --set full --import-source no \
  -o $W/prof-$v $B/splat-$v -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $W/o/ncu-$v.log 2>&1
ncu -i $W/prof-$v.ncu-rep --page details > $W/o/details-$v.txt 2>&1
ncu -i $W/prof-$v.ncu-rep --page source --print-source sass --csv > $W/o/source-$v.csv 2>&1
done
tar czf $OUT/r11.tgz -C $W/o .
