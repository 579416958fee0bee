set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
B=$PWD/.device/bin W=/tmp/r9; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
# Rc 24: boxes taller than the record's chords (exact test) next to chorded ones.
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 24 --psf-cache-radius 24 -o $W/r24.sle --quiet --force
$B/starlens-splat -i $W/r24.sle -o $W/r24.cpu.exr --backend cpu --quiet --force
for v in chords pairs5; do for s in scatter16 atomic tile16 tile32; do
  $B/splat-$v -i $W/r24.sle -o $W/r24.$v.exr --backend gpu --gpu-strategy $s --quiet --force
  $B/starlens-compare $W/r24.$v.exr $W/r24.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/cmp.txt 2>&1; rc=$?
  echo "rc24 $v $s: compare rc $rc; contrib $(python3 -c "import json;print(json.load(open('$W/r24.$v.exr.manifest.json'))['counts']['contributions'], json.load(open('$W/r24.cpu.exr.manifest.json'))['counts']['contributions'])"); $(tail -2 $W/cmp.txt | tr '\n' ' ')"
done; done | tee $OUT/rc24.txt
VARIANTS="chords pairs5 pairs6" PROFILE=pairs5 bash .device/variants.sh
