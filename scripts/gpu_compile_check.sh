#!/usr/bin/env bash
# Compiles the GPU backends of starlens-splat and starlens-produce for NVIDIA (nvcc, sm_90) and
# AMD (hipcc, gfx1030) where those compilers exist. Compile only: no GPU is needed.
set -euo pipefail
jobs=$(nproc)
built=0
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=$PATH:/usr/local/cuda/bin
  [ -f build-cuda/build.ninja ] || meson setup build-cuda --buildtype=release -Dwerror=true -Dgpu=cuda >/dev/null
  ninja -C build-cuda -j "$jobs" tools/splat/starlens-splat tools/produce/starlens-produce
  built=$((built + 1))
fi
if command -v hipcc >/dev/null; then
  [ -f build-hip/build.ninja ] || meson setup build-hip --buildtype=release -Dwerror=true -Dgpu=hip >/dev/null
  ninja -C build-hip -j "$jobs" tools/splat/starlens-splat tools/produce/starlens-produce
  built=$((built + 1))
fi
echo "GPU backend compiled for $built target(s)"
