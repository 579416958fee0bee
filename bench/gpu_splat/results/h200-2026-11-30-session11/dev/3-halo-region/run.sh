set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin; mkdir -p $OUT/r
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab timeout 240 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab main=$D/main.sh h4=$D/h4.sh h4lb7=$D/h4lb7.sh h8=$D/h8.sh > $OUT/r/ab.out 2>&1
tail -20 $OUT/r/ab.out
for v in h4 h8; do SPLAT=$B/splat-$v RUN_TIMEOUT=60 timeout 200 bash tests/gpu/run_on_device.sh $B $OUT/r/checks-$v > $OUT/r/checks-$v.out 2>&1; grep -E "GPU checks|FAIL|fail" $OUT/r/checks-$v.out | head -8; done
cd $OUT && tar czf r.tgz r && rm -rf r
