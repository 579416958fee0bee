#!/usr/bin/env bash
# Runs one libFuzzer harness for SECONDS on a working copy of its seed corpus, with the limits
# that make a finding of anything but InputError: a crash or sanitizer report, an exception
# escaping, an input taking more than 10 s, more than 512 MB resident or one allocation above
# 256 MB (leaks inside libhdf5 are suppressed: lsan.supp). After a finding it starts again on the remaining time (up to 20 times with
# --keep-going, else it stops). Writes RESULTS/<name>.log (libFuzzer's output), RESULTS/<name>/
# (corpus, crash-*/oom-*/timeout-* reproducers) and one tab-separated summary line to stdout:
#   name  seconds  executions  coverage  features  corpus  findings
# Exit 0 without findings, 1 with.
# With FUZZ_RUNS=N in the environment the run is N inputs from libFuzzer's seed 1, SECONDS only
# a ceiling: the same tree and seeds give the same inputs (make test's smoke run), so a finding
# there is the change's, not the luck of the draw. The reproducers of earlier findings
# (fuzz/regressions/<harness>/) join the seeds, so each is run first every time.
# usage: fuzz/run_harness.sh [--keep-going] BINARY SEEDS_DIR SECONDS RESULTS_DIR
set -uo pipefail
keep_going=0
if [ "${1:-}" = --keep-going ]; then keep_going=1; shift; fi
here=$(dirname "$(realpath "$0")")
binary=$(realpath "$1") seeds=$2 seconds=$3 results=$4
name=$(basename "$binary" _fuzz)
mkdir -p "$results/$name/corpus" "$results/$name/findings"
# The harness's input files, in memory-backed /dev/shm where there is one.
tmp=$(mktemp -d /dev/shm/starlens-fuzz-run.XXXXXX 2>/dev/null || mktemp -d)
results=$(realpath "$results")
[ -d "$seeds" ] && cp -n "$seeds"/* "$results/$name/corpus/" 2>/dev/null
[ -d "$here/regressions/$name" ] && cp -n "$here/regressions/$name"/* "$results/$name/corpus/"
runs=()
[ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS" -seed=1)
log=$results/$name.log
: >"$log"
executions=0 findings=0 coverage=0 features=0 corpus=0
deadline=$((SECONDS + seconds))
for attempt in $(seq 1 20); do
  left=$((deadline - SECONDS))
  [ "$left" -gt 0 ] || break
  # In a subshell, so that the shell's "Aborted" line of a finding goes to the log too.
  (
    export TMPDIR="$tmp" LSAN_OPTIONS=suppressions="$here/lsan.supp"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    "$binary" "${runs[@]}" -max_total_time="$left" -timeout=10 -rss_limit_mb=512 -malloc_limit_mb=256 \
      -print_final_stats=1 -artifact_prefix="$results/$name/findings/" "$results/$name/corpus"
  ) >>"$log" 2>&1
  status=$?
  # Executions of this attempt: the final stats, or the last status line after a finding.
  run=$(tac "$log" | grep -m1 -oE 'stat::number_of_executed_units: [0-9]+|^#[0-9]+' | grep -oE '[0-9]+$')
  executions=$((executions + ${run:-0}))
  [ "$status" -eq 0 ] && break
  findings=$((findings + 1))
  [ "$keep_going" -eq 1 ] || break
done
rm -rf "$tmp"  # with the input files of runs that ended on a finding
# libomp's registration files of the runs that aborted (a clean exit removes its own).
for pid in $(grep -oE '^==[0-9]+==' "$log" | tr -d = | sort -u); do
  rm -f "/dev/shm/__KMP_REGISTERED_LIB_${pid}_"*
done
last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
coverage=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo 0)
features=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo 0)
corpus=$(find "$results/$name/corpus" -type f | wc -l)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$seconds" "$executions" "${coverage:-0}" \
  "${features:-0}" "$corpus" "$findings"
[ "$findings" -eq 0 ]
