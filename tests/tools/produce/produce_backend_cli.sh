#!/usr/bin/env bash
# produce's --backend and --gpu-device on any machine (CI has no GPU): a build without a GPU
# backend refuses --backend gpu with exit 2 naming the flag; a GPU build exits 1 with the phase
# named ("gpu device: ...") for a device index the machine lacks (and for any index on a machine
# without a GPU), leaving no stream and no manifest behind (no CPU fallback); unknown backends
# and negative indices are bad arguments. (The GPU stream against the CPU's: gpu/gpu_vs_cpu.sh,
# on the device.)
# usage: produce_backend_cli.sh PRODUCE TRACE FIXTURES GPU_BACKEND(none|cuda|hip)
set -uo pipefail
produce=$1 trace=$2 fixtures=$3 gpu=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"
nothing_written() {
  ls | grep -q -v -x -e map.h5 -e map.h5.manifest.json -e sky.h5 -e stdout -e stderr &&
    fail "a refused or failed run left files: $(ls)"
}

cd "$work"
"$trace" --spacetime minkowski --bh-ra 100 --bh-dec 20 --fov 40 --width 64 --height 40 \
  -o map.h5 --quiet || { echo "FAIL: trace"; exit 1; }
"$fixtures" uniform --count 2000 --order 2 --seed 1 -o sky.h5 || { echo "FAIL: fixture store"; exit 1; }

expect 2 "--backend" "$produce" -l map.h5 -c sky.h5 -o x.sle --backend tpu --quiet
expect 2 "--gpu-device" "$produce" -l map.h5 -c sky.h5 -o x.sle --backend gpu --gpu-device -1 --quiet
if [ "$gpu" = none ]; then
  expect 2 "--backend gpu: this build has no GPU backend" \
    "$produce" -l map.h5 -c sky.h5 -o x.sle --backend gpu --quiet
else
  expect 1 "gpu device: " "$produce" -l map.h5 -c sky.h5 -o x.sle --backend gpu --gpu-device 4096 --quiet
  expect 1 "gpu device: " "$produce" -l map.h5 -c sky.h5 --sink count -o x.json --backend gpu \
    --gpu-device 4096 --quiet
fi
nothing_written
expect 0 "" "$produce" -l map.h5 -c sky.h5 -o good.sle --backend cpu --quiet

[ "$failures" = 0 ] && echo "produce backend flags: all checks passed"
