set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/r17; mkdir -p $W/o
A=""; for v in base seg512 seg2048 seg4096 b23; do A="$A $v=$B/splat-$v"; done
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab1 timeout 220 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $W/o/ab $A > $W/o/ab.out 2>&1; cut -c1-175 $W/o/ab/ab-table.txt
tar czf $OUT/r17.tgz -C $W/o .
