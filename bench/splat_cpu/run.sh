#!/usr/bin/env bash
# bench/splat_cpu: CPU splat throughput on 1M synthetic events (uniform and hot spot),
# 1 and 2 threads, peak RSS, and RSS against event count (memory must not grow with it).
# cache/s/core: cached contributions per second of the cached pass (wall) per thread;
# cache/cpu_s: per second of the threads' CPU time in that pass (median over the replays of
# each); load: the 1-minute load average after the run.
# usage: bench/splat_cpu/run.sh [BUILD_DIR] [WORK_DIR]   (defaults: build, /tmp/starlens-bench-splat)
#   env: THREADS ("1 2"), REPEAT (3), COUNTS ("250000 1000000")
set -euo pipefail
build=${1:-build}
work=${2:-/tmp/starlens-bench-splat}
repo=$(cd "$(dirname "$0")/../.." && pwd)
synth=$build/bench/synth_events/starlens-synth-events
splat=$build/tools/splat/starlens-splat
mkdir -p "$work"
threads_list=${THREADS:-"1 2"}
repeat=${REPEAT:-3}
counts=${COUNTS:-"250000 1000000"}  # events per stream; add larger ones to check flat memory
direct_count=${DIRECT_COUNT:-100000}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
echo "build: $("$splat" --version)"
for distribution in uniform hotspot; do
  for count in $counts; do
    "$synth" --distribution "$distribution" --count "$count" --width 1920 --height 1080 --seed 1 \
      -o "$work/$distribution-$count.sle" --force --quiet
  done
done
cases="uniform:$counts hotspot:$counts"
if [ "$direct_count" -gt 0 ]; then
  "$synth" --distribution mixed --psf-min-y 1e-10 --count "$direct_count" --width 1920 \
    --height 1080 --seed 1 -o "$work/direct-$direct_count.sle" --force --quiet
  cases="$cases direct:$direct_count"
fi

printf '\n%-8s %8s %7s %10s %14s %16s %14s %10s %16s %16s %10s %8s %8s %6s\n' distribution events threads cache_s cache_contrib cache/s/core cache/cpu_s direct_s direct_contrib direct/s/core total_s write_s rss_MB load
for case in $cases; do
  distribution=${case%%:*}
  for count in ${case#*:}; do
    for threads in $threads_list; do
      stream=$work/$distribution-$count.sle
      frame=$work/$distribution-$count-t$threads.exr
      /usr/bin/time -f '%M' -o "$work/rss" "$splat" -i "$stream" -o "$frame" --threads "$threads" \
        --repeat "$repeat" --force --quiet
      python3 - "$frame.manifest.json" "$(cat "$work/rss")" "$distribution" "$count" "$threads" \
        "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
rss_kb, distribution, count, threads = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
c, t = m["counts"], m["timings_s"]
rate = c["contributions_cache"] / t["accumulate_cache"]
direct_rate = c["contributions_direct"] / t["accumulate_direct"] if t["accumulate_direct"] > 0 else 0.0
# Per CPU-second of the threads' work (builds that report it): what a loaded machine disturbs least.
cpu = t.get("accumulate_cache_cpu")
cpu_rate = f'{c["contributions_cache"] / cpu / 1e6:12.1f} M' if cpu else f'{"-":>14}'
print(f'{distribution:<8} {c["events"]:8d} {threads:7d} {t["accumulate_cache"]:10.4f} {c["contributions_cache"]:14d} '
      f'{rate / threads / 1e6:14.1f} M {cpu_rate} {t["accumulate_direct"]:10.4f} {c["contributions_direct"]:16d} '
      f'{direct_rate / threads / 1e6:14.2f} M '
      f'{t["total"]:10.3f} {t["write_exr"]:8.3f} {rss_kb / 1024:8.1f} {sys.argv[6]:>6}')
PY
    done
  done
done
echo
echo "manifests: $work/*.exr.manifest.json (median of $repeat replays each)"

# The direct evaluator against exact pixel integrals on the same direct events, one thread
# (the speed-up of the tensor rule; bench/direct_evaluator).
echo
"$build/bench/direct_evaluator/starlens-bench-direct" --events "${DIRECT_BENCH_EVENTS:-200}"
