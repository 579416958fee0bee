set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/det; mkdir -p $OUT/r $W
log=$OUT/r/determinism.txt
for dist in uniform hotspot mixed; do
  n=1000000; [ $dist = mixed ] && n=300000
  $B/starlens-synth-events --distribution $dist --count $n --width 1920 --height 1080 --seed 11 -o $W/$dist.sle --force --quiet
  for s in scatter16 tile16 tile32 atomic adaptive; do
    for k in 1 2 3; do timeout 60 $B/starlens-splat -i $W/$dist.sle -o $W/$dist-$s-$k.exr --backend gpu --gpu-strategy $s --force --quiet; done
    h=$(sha256sum $W/$dist-$s-[123].exr | cut -c1-16 | sort -u | wc -l)
    d=$($B/starlens-compare $W/$dist-$s-1.exr $W/$dist-$s-2.exr --budget tests/gpu/gpu_vs_cpu_budget.json 2>&1 | grep -E "^Y " | tr -s " ")
    echo "$dist $s: distinct hashes over 3 runs: $h; run 1 vs 2: $d" | tee -a $log
  done
done
timeout 60 $B/starlens-splat -i $W/uniform.sle -o $W/u-cpu.exr --backend cpu --force --quiet
timeout 60 $B/starlens-splat -i $W/uniform.sle -o $W/u-cpu2.exr --backend cpu --force --quiet
echo "cpu: distinct hashes over 2 runs: $(sha256sum $W/u-cpu.exr $W/u-cpu2.exr | cut -c1-16 | sort -u | wc -l)" | tee -a $log
cd $W && timeout 60 $B/starlens-splat --from-manifest $W/uniform-scatter16-1.exr.manifest.json > $OUT/r/replay.json 2> $OUT/r/replay.err; echo "replay rc=$?" >> $log; cat $OUT/r/replay.err >> $log
tail -3 $log
cd $OUT && tar czf r.tgz r && rm -rf r
