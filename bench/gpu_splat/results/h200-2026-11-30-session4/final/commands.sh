set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
bash tests/gpu/run_on_device.sh $B $OUT/checks > $OUT/checks.out 2>&1; tail -3 $OUT/checks.out
WORK=/tmp/bench bash bench/gpu_splat/run.sh $B $OUT/bench > $OUT/bench.out 2>&1; tail -40 $OUT/bench/table.txt
