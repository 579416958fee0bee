#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin D=$PWD/.device
RUN_TIMEOUT=60 timeout 240 bash tests/gpu/run_on_device.sh $B $OUT/checks > $OUT/checks.log 2>&1
echo checks rc=$?; grep -c " ok " $OUT/checks.log; grep -E "FAIL|failed" $OUT/checks.log | head -5
EVENTS=20000000 ROUNDS=2 STRATEGIES="tile32 tile16" WORK=/tmp/ab timeout 250 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab main=$D/main.sh b512=$D/b512.sh b2048=$D/b2048.sh > $OUT/ab.log 2>&1
cut -c1-150 $OUT/ab/ab-table.txt
