set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=.device/bin
nvidia-smi --query-gpu=name,clocks.sm --format=csv | tee $OUT/gpu.txt
bash tests/gpu/run_on_device.sh $B $OUT/checks > $OUT/checks.out 2>&1; tail -5 $OUT/checks.out
EVENTS=20000000 ROUNDS=3 STRATEGIES="scatter16" WORK=/tmp/ab1 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab20M B=$B/splat-B C=$B/starlens-splat > $OUT/ab20M.out 2>&1; cat $OUT/ab20M/ab-table.txt
EVENTS=100000000 ROUNDS=2 STRATEGIES="adaptive" WORK=/tmp/ab2 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/ab100M A=$B/splat-A B=$B/splat-B C=$B/starlens-splat > $OUT/ab100M.out 2>&1; cat $OUT/ab100M/ab-table.txt
