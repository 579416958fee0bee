#!/usr/bin/env bash
# bench/animation: frames per hour of the example animations (examples/orbit, examples/infall,
# and the Kerr a = 0.9 examples/kerr-orbit and examples/kerr-infall: 640x360 on Stellarium's
# catalogue, the CPU backend) through their Makefiles
# with make -j JOBS, in three blocks of FRAMES frames each (the start, the middle and the end of
# the path, where the view differs), after the catalogue and the reference frame of the
# sequence's exposure are made. Prints, per block, the wall seconds, seconds a frame, frames
# an hour and the peak RSS of the largest process (GNU time's %M over make's children).
# usage: bench/animation/run.sh [BUILD_DIR]   env: JOBS (default nproc), FRAMES (default 12),
#   EXAMPLES (default "orbit infall kerr-orbit kerr-infall")
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "${1:-$root/build}")
jobs=${JOBS:-$(nproc)}
frames=${FRAMES:-12}
examples=${EXAMPLES:-orbit infall kerr-orbit kerr-infall}
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "build: $("$build/tools/splat/starlens-splat" --version | head -1)"
printf '%-12s %-9s %8s %8s %10s %8s\n' example frames wall_s s/frame frames/h rss_MB
for example in $examples; do
  make -s -C "$root/examples/$example" clean
  make -s -C "$root/examples/$example" -j "$jobs" FIRST=0 LAST=0 sl-sequence \
    STARLENS_BUILD="$build" QUIET=--quiet >/dev/null
  for first in 1 $((120 - frames / 2)) $((240 - frames)); do
    last=$((first + frames - 1))
    /usr/bin/time -f '%e %M' -o /tmp/starlens-bench-animation.time \
      make -s -C "$root/examples/$example" -j "$jobs" FIRST=$first LAST=$last sl-sequence \
      STARLENS_BUILD="$build" QUIET=--quiet >/dev/null
    read -r wall rss </tmp/starlens-bench-animation.time
    awk -v e="$example" -v f="$first-$last" -v w="$wall" -v n="$frames" -v r="$rss" \
      'BEGIN { printf "%-12s %-9s %8.2f %8.2f %10.0f %8.0f\n", e, f, w, w / n, 3600 * n / w, r / 1024 }'
  done
  make -s -C "$root/examples/$example" clean
done
