#!/usr/bin/env bash
# bench/catalog: (1) ingest rate of 2MASS-format gzip text, rows per second on 1 and 2 threads;
# (2) synth straight to a store: wall time and peak RSS for 10^8 stars on 2 threads within the
# default 4 GB --memory-limit (issue 4 targets: >= 10^6 rows/s on 2 cores; 10^8 stars <= 120 s).
# usage: bench/catalog/run.sh [BUILD_DIR] [WORK_DIR]   (defaults: build, /tmp/starlens-bench-catalog)
# env: INGEST_ROWS (default 4000000), PSC_FILES (4), SYNTH_STARS (100000000), THREADS ("1 2"),
#      TIME_TOOL (GNU time, default /usr/bin/time)
set -euo pipefail
build=${1:-build}
work=${2:-/tmp/starlens-bench-catalog}
tool=$build/tools/catalog/starlens-catalog
ingest_rows=${INGEST_ROWS:-4000000}
psc_files=${PSC_FILES:-4}
synth_stars=${SYNTH_STARS:-100000000}
threads_list=${THREADS:-"1 2"}
time_tool=${TIME_TOOL:-/usr/bin/time}  # GNU time, for peak RSS
mkdir -p "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "build: $("$tool" --version)"

# Input: synth's 2MASS-format text (60 fields a row, gzip level 6, like the release's files).
rm -rf "$work/psc" && mkdir -p "$work/psc"
"$tool" synth --count "$ingest_rows" --seed 1 --psc-dir "$work/psc" --psc-files "$psc_files" --quiet
echo "input: $ingest_rows rows in $psc_files files, $(du -sh "$work/psc" | cut -f1) gzip"

# The machine may be shared: besides wall time, CPU time (user + sys) and the rate per
# CPU-second are reported, which other processes do not change much.
report() {  # manifest, "peak_RSS_kB wall_s user_s sys_s", label
  python3 - "$@" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rss_kb, wall, user, system = (float(x) for x in sys.argv[2].split())
label = sys.argv[3]
c, t = m["counts"], m["timings_s"]
rows = c.get("rows_read", c.get("stars_written"))
cpu = user + system
print(f'{label:<18} {m["threads"]:7d} {rows:11d} {wall:8.2f} {rows / wall:11.0f} {cpu:8.2f} {rows / cpu:12.0f} '
      f'{t.get("read_parse", t.get("generate", 0.0)):8.2f} {t.get("sort_merge_write", 0.0):8.2f} '
      f'{c.get("sort_runs_written", 0):5d} {rss_kb / 1024:8.0f}')
PY
}

printf '\n%-18s %7s %11s %8s %11s %8s %12s %8s %8s %5s %8s\n' run threads rows wall_s rows/s cpu_s rows/cpu_s read_s write_s runs rss_MB
for threads in $threads_list; do
  out=$work/ingest-t$threads.h5
  "$time_tool" -f '%M %e %U %S' -o "$work/time" "$tool" ingest "$work"/psc/psc_*.gz -o "$out" \
    --threads "$threads" --force --quiet
  report "$out.manifest.json" "$(cat "$work/time")" "ingest 2mass gzip"
done

out=$work/synth.h5
"$time_tool" -f '%M %e %U %S' -o "$work/time" "$tool" synth --count "$synth_stars" --seed 1 -o "$out" \
  --threads 2 --force --quiet
report "$out.manifest.json" "$(cat "$work/time")" "synth to store"
python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print('synth timings:', m['timings_s'], 'order', m['store']['order'])" "$out.manifest.json"
echo "store: $(du -h "$out" | cut -f1)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "manifests: $work/*.manifest.json"
