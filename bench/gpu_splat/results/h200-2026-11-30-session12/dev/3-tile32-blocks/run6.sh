#!/bin/bash
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
RUN_TIMEOUT=60 timeout 240 bash tests/gpu/run_on_device.sh $B $OUT/checks > $OUT/checks.log 2>&1
echo checks rc=$?; tail -1 $OUT/checks/summary.txt; grep -E "tile32" $OUT/checks.log | head -30
