#!/usr/bin/env bash
# bench/produce: starlens-produce on a 10^7-star synthetic store (starlens-catalog synth) and a
# 1080p Schwarzschild lens map (starlens-trace: r_obs 30 M, fov 60 deg, the galactic centre):
# events and star images per second per core on 1 and 2 threads, per-phase times, peak RSS,
# peak RSS against catalogue size (10^6 vs 10^7 stars), and a bounded run (--cells) that must
# read only its cells. Issue 5 targets: >= 2e6 events/s/core, >= 1.8x from 1 to 2 threads,
# memory independent of catalogue size.
# usage: bench/produce/run.sh [BUILD_DIR] [WORK_DIR]   (defaults: build, /tmp/starlens-bench-produce)
# env: STARS (default 10000000), SMALL_STARS (1000000), THREADS ("1 2"), TIME_TOOL (/usr/bin/time)
set -euo pipefail
build=${1:-build}
work=${2:-/tmp/starlens-bench-produce}
stars=${STARS:-10000000}
small_stars=${SMALL_STARS:-1000000}
threads_list=${THREADS:-"1 2"}
time_tool=${TIME_TOOL:-/usr/bin/time}  # GNU time, for peak RSS
produce=$build/tools/produce/starlens-produce
catalog=$build/tools/catalog/starlens-catalog
trace=$build/tools/trace/starlens-trace
mkdir -p "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "build: $("$produce" --version | head -1)"

# Inputs (made once; delete WORK_DIR to remake them).
[ -s "$work/stars.h5" ] || "$catalog" synth --count "$stars" --seed 1 -o "$work/stars.h5" --quiet --force
[ -s "$work/small.h5" ] || "$catalog" synth --count "$small_stars" --seed 1 -o "$work/small.h5" --quiet --force
[ -s "$work/map.h5" ] || "$trace" --spacetime schwarzschild --r-obs 30 --fov 60 --width 1920 --height 1080 \
  -o "$work/map.h5" --quiet --force
echo "inputs: $stars stars ($(du -h "$work/stars.h5" | cut -f1)), $small_stars stars, lens map $(du -h "$work/map.h5" | cut -f1)"

# One run: peak RSS and wall time from GNU time, the rest from the manifest.
run() {  # label, threads, output, produce arguments...
  local label=$1 threads=$2 output=$3; shift 3
  "$time_tool" -f '%M %e %U %S' -o "$work/time" "$produce" "$@" -o "$output" --threads "$threads" --force --quiet
  python3 - "$output.manifest.json" "$(cat "$work/time")" "$label" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rss_kb, wall, user, system = (float(x) for x in sys.argv[2].split())
c, t, threads = m["counts"], m["timings_s"], m["threads"]
produce = t["produce_wall"]
print(f'{sys.argv[3]:<22} {threads:3d} {c["stars_read"]:9d} {c["stars_too_faint"]:9d} {c["images"]:9d} '
      f'{c["events"]:9d} {t["query"]:6.2f} {t["read"]:6.2f} {t["mapping"]:6.2f} {t["colour"]:6.2f} '
      f'{t["write"]:6.2f} {produce:7.3f} {t.get("produce_cpu", float("nan")):6.3f} '
      f'{c["events"] / produce / threads / 1e6:8.3f} '
      f'{c["stars_read"] / produce / threads / 1e6:8.3f} {wall:6.2f} {rss_kb / 1024:7.0f}')
PY
}

printf '\n%-22s %3s %9s %9s %9s %9s %6s %6s %6s %6s %6s %7s %6s %8s %8s %6s %7s\n' run thr stars too_faint images \
  events query read map colour write prod_s cpu_s Mev/s/c Mst/s/c wall_s rss_MB
for threads in $threads_list; do
  run "count sink" "$threads" "$work/count-t$threads.json" -l "$work/map.h5" -c "$work/stars.h5" --sink count
done
for threads in $threads_list; do
  run "count, min-Y 1e-12" "$threads" "$work/faint-t$threads.json" -l "$work/map.h5" -c "$work/stars.h5" \
    --sink count --psf-min-y 1e-12
done
run "file sink" 2 "$work/events.sle" -l "$work/map.h5" -c "$work/stars.h5"
echo "event file: $(du -h "$work/events.sle" | cut -f1)"
rm -f "$work/events.sle"
run "count, 10^6 stars" 2 "$work/small.json" -l "$work/map.h5" -c "$work/small.h5" --sink count

echo
echo "per-phase columns are thread-seconds summed over the workers; prod_s is the producer's wall time"
echo "(query = index build, before it); cpu_s = the workers' CPU seconds over prod_s (waits and"
echo "preemption left out); too_faint = stars no image of which can reach min-Y (skipped"
echo "before mapping); images = star images mapped (events + those below min-Y); Mev/s/c = events"
echo "written per second per thread; Mst/s/c = catalogue stars per second per thread."

# Chunk statistics of the default run, and the colour table's error, from its manifest.
"$produce" -l "$work/map.h5" -c "$work/stars.h5" --sink count -o "$work/chunks.json" --threads 2 --force --quiet
python3 - "$work/chunks.json.manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
s = m["chunk_statistics"]
print(f'\nchunks: {s["chunks"]}; event-producing triangles per chunk {s["triangles_per_chunk"]}; '
      f'occupied 32 px tiles per chunk {s["tiles_per_chunk"]}')
print(f'index: {m["index"]}')
print(f'colour table worst relative error {m["colour"]["table_max_relative_error"]:.3g}')
PY

# Bounded: 1% of the field's cells must read about 1% of the bytes.
python3 - "$work/chunks.json.manifest.json" >"$work/cells" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
first, cells = m["coverage"]["first_cell"], m["coverage"]["cells_selected"]
print(first, first + max(1, cells // 100))
PY
read -r first end <"$work/cells"
"$produce" -l "$work/map.h5" -c "$work/stars.h5" --sink count -o "$work/bounded.json" --cells "$first:$end" \
  --threads 2 --force --quiet
python3 - "$work/bounded.json.manifest.json" "$work/chunks.json.manifest.json" <<'PY'
import json, sys
bounded, full = (json.load(open(p)) for p in sys.argv[1:3])
b, f = bounded["counts"], full["counts"]
print(f'\nbounded --cells {bounded["bounds"]["cells"]}: {b["catalog_cells_read"]} cells, {b["catalog_stars_read"]} stars, '
      f'{b["catalog_bytes_read"]} bytes read of {f["catalog_bytes_read"]} for the whole field '
      f'({100 * b["catalog_bytes_read"] / f["catalog_bytes_read"]:.2f}%), {b["events"]} events')
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "manifests: $work/*.manifest.json"
