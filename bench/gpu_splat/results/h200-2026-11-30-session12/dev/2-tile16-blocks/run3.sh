#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
lscpu | grep -E "Model name|Flags" | sed 's/Flags:.*\(sha_ni\).*/Flags: ... sha_ni .../' > $OUT/cpu.txt
(command -v openssl && timeout 20 openssl speed -seconds 3 -bytes 1048576 -evp sha256) > $OUT/openssl-speed.txt 2>&1
RUN_TIMEOUT=60 timeout 240 bash tests/gpu/run_on_device.sh $B $OUT/checks > $OUT/checks.log 2>&1
echo checks rc=$?; tail -2 $OUT/checks/summary.txt
EVENTS=20000000 ROUNDS=2 STRATEGIES="tile16 scatter16" WORK=/tmp/ab timeout 200 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab main=$PWD/.device/main.sh ballot=$B/starlens-splat > $OUT/ab.log 2>&1
cut -c1-150 $OUT/ab/ab-table.txt
