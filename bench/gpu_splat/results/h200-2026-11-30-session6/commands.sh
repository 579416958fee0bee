# Sixth session, the H200 machine. Binaries of commit f49b86f built here with -Dgpu=cuda,
# libraries bundled (docs/gpu.md), carried as .device/.
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin
# batch-sweep-1, batch-sweep-2 (binaries of 9295f2d, the kernels of f49b86f with 2^20 batches by
# default; each splat-bN wrapper sets STARLENS_GPU_BATCH_EVENTS=2^N and, for rN,
# STARLENS_GPU_TILE_REFERENCES=2^N):
EVENTS=100000000 ROUNDS=2 STRATEGIES="adaptive" WORK=/tmp/ab bash bench/gpu_splat/ab.sh \
  $B/starlens-synth-events $OUT/batch b20=$B/splat-b20 b21=$B/splat-b21 b22=$B/splat-b22 b23=$B/splat-b23
EVENTS=100000000 ROUNDS=2 STRATEGIES="adaptive" WORK=/tmp/ab bash bench/gpu_splat/ab.sh \
  $B/starlens-synth-events $OUT/batch2 b20=$B/splat-b20 b21=$B/splat-b21 b21r26=$B/splat-b21r26 \
  b22r26=$B/splat-b22r26 b23r27=$B/splat-b23r27
# final/ (f49b86f): the benchmark, then the checks (with tests/gpu/run_on_device.sh of 48f7eb7)
WORK=/tmp/bench bash bench/gpu_splat/run.sh .device/bin $OUT/bench > $OUT/bench.out 2>&1
bash tests/gpu/run_on_device.sh .device/bin $OUT/checks > $OUT/checks.out 2>&1
# first-checks-72of73.out: the checks of f49b86f with run_on_device.sh before 48f7eb7 (racecheck
# tile16 killed by the host's OOM killer: racecheck's memory with 200 references a round).
