set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin; mkdir -p $OUT/r
RUN_TIMEOUT=60 timeout 400 bash tests/gpu/run_on_device.sh $B $OUT/r/checks > $OUT/r/checks.out 2>&1
grep -E "GPU checks|FAIL|replay" $OUT/r/checks.out | head -12
W=/tmp/checks-work; ls /tmp | head; 
cd $OUT && tar czf r.tgz r && rm -rf r
