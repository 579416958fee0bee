set -u
export LD_LIBRARY_PATH=$PWD/.device/lib PATH=$PATH:/usr/local/cuda/bin
D=$PWD/.device B=$PWD/.device/bin W=/tmp/r28; mkdir -p $W $OUT/r
$B/starlens-synth-events --distribution mixed --count 300000 --width 999 --height 701 --seed 7 -o $W/m.sle --quiet --force
timeout 60 $B/starlens-splat -i $W/m.sle -o $W/m.cpu.exr --backend cpu --quiet --force
timeout 20 $B/splat-vote -i $W/m.sle -o $W/m.exr --backend gpu --gpu-strategy scatter16 --quiet --force; echo "vote rc=$?" > $OUT/r/checks.txt
timeout 20 $B/starlens-compare $W/m.exr $W/m.cpu.exr --budget tests/gpu/gpu_vs_cpu_budget.json > $W/c.txt; echo "compare rc=$?" >> $OUT/r/checks.txt
python3 -c "import json;print(json.load(open('$W/m.exr.manifest.json'))['counts']['contributions'], json.load(open('$W/m.cpu.exr.manifest.json'))['counts']['contributions'])" >> $OUT/r/checks.txt
cat $OUT/r/checks.txt
for v in main vote nofb; do printf '#!/bin/bash\nexec timeout 30 %s "$@"\n' $B/splat-$v > $W/$v.sh; chmod +x $W/$v.sh; done
EVENTS=20000000 ROUNDS=1 STRATEGIES="scatter16" WORK=/tmp/ab timeout 150 bash bench/gpu_splat/ab.sh $B/starlens-synth-events $OUT/r/ab main=$W/main.sh vote=$W/vote.sh nofb=$W/nofb.sh > $OUT/r/ab.out 2>&1
cut -c1-150 $OUT/r/ab/ab-table.txt; tail -3 $OUT/r/ab.out
