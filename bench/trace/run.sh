#!/usr/bin/env bash
# bench/trace: starlens-trace on the benchmark view (1920x1080, Schwarzschild, r_obs 30 M,
# pinhole 60 degrees, hole straight ahead at the galactic centre, mesh step 4 px, tol 0.01 px):
# wall and CPU time, vertices, triangles, rays traced, dropped triangles and their image area
# (pixels^2), peak RSS, 1 and 2 threads, for each maximum depth in DEPTHS (default: the tool's
# default, 12). SPACETIME_ARGS replaces "--spacetime schwarzschild" (for the Kerr benchmark:
# SPACETIME_ARGS="--spacetime kerr --spin 0.998 --inclination 80").
# usage: bench/trace/run.sh [BUILD_DIR] [WORK_DIR]   (defaults: build, /tmp/starlens-bench-trace)
set -euo pipefail
build=${1:-build}
work=${2:-/tmp/starlens-bench-trace}
trace=$build/tools/trace/starlens-trace
mkdir -p "$work"
threads_list=${THREADS:-"1 2"}
depths=${DEPTHS:-12}
read -r -a spacetime_args <<<"${SPACETIME_ARGS:---spacetime schwarzschild}"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "build: $("$trace" --version)"
echo "spacetime: ${spacetime_args[*]}"
printf '\n%5s %7s %8s %8s %10s %10s %10s %9s %9s %8s %9s\n' depth threads wall_s cpu_s vertices \
  triangles rays dropped drop_px2 rss_MB file_MB
for depth in $depths; do
  for threads in $threads_list; do
    map=$work/map-d$depth-t$threads.h5
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$trace" "${spacetime_args[@]}" --r-obs 30 \
      --width 1920 --height 1080 --fov 60 --mesh-step 4 --mesh-tol 0.01 --mesh-max-depth "$depth" \
      --threads "$threads" -o "$map" --force --quiet
    python3 - "$map.manifest.json" "$(cat "$work/time")" "$depth" "$threads" "$(stat -c %s "$map")" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
wall, user, system, rss_kb = sys.argv[2].split()
depth, threads, size = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
c = m["counts"]
print(f'{depth:5d} {threads:7d} {float(wall):8.2f} {float(user) + float(system):8.2f} {c["vertices"]:10d} '
      f'{c["triangles"]:10d} {c["traced_rays"]:10d} {sum(c["dropped"].values()):9d} '
      f'{sum(c["dropped_area_px2"].values()) if "dropped_area_px2" in c else float("nan"):9.0f} '
      f'{int(rss_kb) / 1024:8.1f} {size / 2**20:9.1f}')
PY
  done
done
echo
echo "phases (s) and counts of the last run: $work/map-d*-t*.h5.manifest.json"
python3 - "$work"/map-d*-t*.h5.manifest.json <<'PY'
import json, sys
for path in sys.argv[1:]:
    m = json.load(open(path))
    c = m["counts"]
    print(path.rsplit("/", 1)[-1], {k: round(v, 3) for k, v in m["timings_s"].items()},
          "dropped", c["dropped"], "dropped_area_px2", c.get("dropped_area_px2"), "shadow",
          c["shadow_triangles"], "by depth", c["kept_triangles_by_depth"])
PY
