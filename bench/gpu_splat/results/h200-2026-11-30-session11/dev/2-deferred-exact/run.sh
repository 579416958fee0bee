set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin; mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/r/gpu.txt
(cd $D/probe && cuobjdump -sass probe.cubin | grep -E "Function|ATOM|LDS|STS|DADD|CAS|BRA" > $OUT/r/probe-sass.txt; timeout 60 ./probe > $OUT/r/probe.txt 2>&1)
cat $OUT/r/probe.txt
SPLAT=$B/splat-deferred timeout 250 bash tests/gpu/run_on_device.sh $B $OUT/r/checks-deferred > $OUT/r/checks.out 2>&1
tail -5 $OUT/r/checks.out
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab timeout 200 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab main=$D/main.sh deferred=$D/deferred.sh > $OUT/r/ab.out 2>&1
tail -12 $OUT/r/ab.out
cd $OUT && tar czf r.tgz r && rm -rf r
