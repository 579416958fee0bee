#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab timeout 200 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab main=$PWD/.device/main.sh chords=$B/starlens-splat > $OUT/ab.log 2>&1
cut -c1-170 $OUT/ab/ab-table.txt
