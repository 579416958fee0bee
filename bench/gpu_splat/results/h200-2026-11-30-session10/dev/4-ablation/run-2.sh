set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin; mkdir -p $OUT/r
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab main=$D/main.sh bare=$D/bare.sh barenotest=$D/barenotest.sh refonly=$D/refonly.sh > $OUT/r/ab.out 2>&1
cut -c1-150 $OUT/r/ab/ab-table.txt
cd $OUT && tar czf r.tgz r && rm -rf r
