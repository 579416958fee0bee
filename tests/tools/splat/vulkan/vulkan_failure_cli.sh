#!/usr/bin/env bash
# The vulkan backend's failure paths through starlens-splat: no loader, no driver, an
# impossible device index, out of device memory (a cap through STARLENS_VULKAN_MEMORY_LIMIT,
# and a frame larger than the device's largest storage buffer), the atomic strategy on a device
# without float64 atomic add each exit 1 with one line naming the phase and the cause (the
# VkResult where the driver gave one), and leave no frame and no manifest (no CPU fallback);
# bad tuning variables and strategies exit 2. The paths that need a device are skipped (77)
# only when the driver file VK_ICD_FILENAMES names does not exist.
# usage: vulkan_failure_cli.sh SPLAT SYNTH_EVENTS
set -uo pipefail
splat=$1 synth=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../../cli_expect.sh"
cd "$work"
"$synth" --distribution mixed --count 2000 --width 64 --height 48 --seed 3 -o events.sle --quiet ||
  { echo "FAIL: synth-events"; exit 1; }
"$synth" --distribution uniform --count 100 --width 4000 --height 2100 --seed 4 -o wide.sle --quiet ||
  { echo "FAIL: synth-events"; exit 1; }
nothing_left() {  # nothing_left LABEL: no frame, manifest or other file from the failed run
  [ ! -e frame.exr ] && [ ! -e frame.exr.manifest.json ] || fail "$1 left a frame or manifest"
  ls | grep -q -v -x -e events.sle -e events.sle.manifest.json -e wide.sle \
    -e wide.sle.manifest.json -e stdout -e stderr && fail "$1 left files: $(ls)"
}

# Without a device: the loader missing, no driver for it.
STARLENS_VULKAN_LOADER=$work/no/libvulkan.so.1 expect 1 "vulkan loader: cannot open .*no/libvulkan.so.1" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
nothing_left "no loader"
VK_ICD_FILENAMES=$work/no_driver.json VK_DRIVER_FILES=$work/no_driver.json \
  expect 1 "vulkan instance: vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
nothing_left "no driver"
# Bad variables and strategies are refused before the device is touched.
STARLENS_VULKAN_BATCH_EVENTS=0 expect 2 "STARLENS_VULKAN_BATCH_EVENTS.*not a whole number" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
STARLENS_VULKAN_BATCH_EVENTS=lots expect 2 "STARLENS_VULKAN_BATCH_EVENTS" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
STARLENS_VULKAN_LIST_WINDOW=0 expect 2 "STARLENS_VULKAN_LIST_WINDOW.*neither 'whole' nor" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
STARLENS_VULKAN_MEMORY_LIMIT=-5 expect 2 "STARLENS_VULKAN_MEMORY_LIMIT.*not a positive whole number" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
nothing_left "a rejected variable"

if [ -n "${VK_ICD_FILENAMES:-}" ] && [ ! -e "$VK_ICD_FILENAMES" ]; then
  echo "no Vulkan device: $VK_ICD_FILENAMES does not exist; device failure paths skipped"
  [ "$failures" = 0 ] && exit 77
  exit 1
fi
expect 2 "'tile32' is not a strategy of the vulkan backend" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --gpu-strategy tile32 --quiet
expect 1 "vulkan device: --gpu-device 4096 is out of range: this machine has [0-9]* Vulkan device(s): 0: " \
  "$splat" -i events.sle -o frame.exr --backend vulkan --gpu-device 4096 --quiet
nothing_left "an impossible device index"
# lavapipe has no float64 atomic add (a device that has it runs the strategy instead).
"$splat" -i events.sle -o frame.exr --backend vulkan --gpu-strategy atomic --quiet >stdout 2>stderr
status=$?
if grep -q "float64 atomic add" stderr; then
  [ "$status" = 1 ] || fail "atomic without float64 atomics exited $status"
  grep -q "vulkan device: .*has no float64 atomic add (VK_EXT_shader_atomic_float's shaderBufferFloat64AtomicAdd)" stderr ||
    fail "atomic without float64 atomics: $(cat stderr)"
  nothing_left "the atomic strategy without float64 atomics"
else
  [ "$status" = 0 ] || fail "--gpu-strategy atomic exited $status: $(cat stderr)"
  rm -f frame.exr frame.exr.manifest.json
fi
# Out of device memory: the frame (64 x 48 x 3 doubles, 73,728 bytes) over a 50,000-byte cap;
# a cap that holds the frame but not the event buffers; a frame larger than the device's
# largest storage buffer (4000 x 2100 x 24 bytes, 201.6 MB; lavapipe's maxStorageBufferRange is
# 128 MiB: skipped on a device whose range holds it).
STARLENS_VULKAN_MEMORY_LIMIT=50000 expect 1 \
  "vulkan frame allocation: vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
nothing_left "out of device memory (frame)"
STARLENS_VULKAN_MEMORY_LIMIT=120000 expect 1 \
  "vulkan event buffers: vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY" \
  "$splat" -i events.sle -o frame.exr --backend vulkan --quiet
nothing_left "out of device memory (event buffers)"
"$splat" -i wide.sle -o frame.exr --backend vulkan --quiet >stdout 2>stderr
status=$?
if grep -q "maxStorageBufferRange" stderr; then
  [ "$status" = 1 ] || fail "a frame over maxStorageBufferRange exited $status"
  grep -q "^starlens-splat: error: vulkan frame allocation: a buffer of 201600000 bytes exceeds" stderr ||
    fail "a frame over maxStorageBufferRange: $(cat stderr)"
  nothing_left "a frame over maxStorageBufferRange"
else
  [ "$status" = 0 ] || fail "a 4000 x 2100 frame exited $status: $(cat stderr)"
  rm -f frame.exr frame.exr.manifest.json
fi

[ "$failures" = 0 ] && echo "vulkan failure paths: all checks passed"
exit $((failures > 0))
