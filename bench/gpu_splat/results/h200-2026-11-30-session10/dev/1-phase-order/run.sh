set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/r19; mkdir -p $W $OUT/r
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/r/gpu.txt
# correctness of the phase-ordered lists: mixed stream, several strategies and scratch settings
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
$B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
cpu=$(python3 -c "import json;print(json.load(open('$W/m.cpu.exr.manifest.json'))['counts']['contributions'])")
for env in "" "STARLENS_GPU_BATCH_EVENTS=50000 STARLENS_GPU_TILE_REFERENCES=20000" "STARLENS_GPU_PHASE_GROUPS=5 STARLENS_GPU_SCATTER_SEGMENT=64"; do
for s in scatter16 tile16 tile32 adaptive; do env $env $B/starlens-splat -i $W/m.sle -o $W/m.exr --backend gpu --gpu-strategy $s --quiet --force
r=$($B/starlens-compare $W/m.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/c.txt; echo rc=$? $(grep -i "max rel" $W/c.txt | head -1))
g=$(python3 -c "import json;print(json.load(open('$W/m.exr.manifest.json'))['counts']['contributions'])")
echo "[$env] $s: $r contributions gpu $g cpu $cpu" >> $OUT/r/checks.txt; done; done
cat $OUT/r/checks.txt
EVENTS=20000000 ROUNDS=2 STRATEGIES="scatter16" WORK=/tmp/ab bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab g1=$D/g1.sh g64=$D/g64.sh g8=$D/g8.sh g64c80=$D/g64c80.sh g1c80=$D/g1c80.sh > $OUT/r/ab.out 2>&1
tail -30 $OUT/r/ab.out
$B/starlens-synth-events --distribution uniform --count 3000000 --width 1920 --height 1080 --seed 2026 -o $W/u3M.sle --quiet
for g in 1 64; do STARLENS_GPU_PHASE_GROUPS=$g timeout 200 ncu --kernel-name regex:scatter_accumulate --launch-count 1 --set full --import-source no \
  -o $W/scatter-g$g $B/starlens-splat -i $W/u3M.sle -o $W/f.exr --backend gpu --gpu-strategy scatter16 --force --quiet > $OUT/r/ncu-g$g.log 2>&1
ncu -i $W/scatter-g$g.ncu-rep --page details > $OUT/r/details-g$g.txt 2>&1; done
grep -E "L1/TEX Hit|L1/TEX Cache Throughput|Duration|Issue Slots|L2 Cache Throughput" $OUT/r/details-g*.txt
cd $OUT && tar czf r.tgz r && rm -rf r
