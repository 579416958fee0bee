#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16 atomic tile16" WORK=/tmp/ab timeout 330 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab main=$PWD/.device/main.sh chords=$B/starlens-splat > $OUT/ab.log 2>&1
RUN_TIMEOUT=60 timeout 200 bash tests/gpu/run_on_device.sh $B $OUT/checks > $OUT/checks.log 2>&1
echo checks rc=$?
tail -5 $OUT/checks.log
