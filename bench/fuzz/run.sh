#!/usr/bin/env bash
# bench/fuzz: every libFuzzer harness of fuzz/ run long (SECONDS each, JOBS harnesses at once,
# going on after a finding), on seeds that the tools of TOOLS_BUILD make. Records into
# bench/fuzz/results/<MACHINE>/: summary.tsv (per harness: seconds, executions, coverage and
# features at the end, corpus size, findings), each harness's libFuzzer statistics, one line
# per finding (findings.tsv: harness, reproducer, what was reported, top frames; triage.py) and
# machine.txt. Reproducers and
# corpora stay in WORK_DIR.
# usage: bench/fuzz/run.sh [SECONDS] [MACHINE] [FUZZ_BUILD] [TOOLS_BUILD] [WORK_DIR] [JOBS]
#   defaults: 600 s, host-<nproc>-cores, build-fuzz, build-test, /tmp/starlens-bench-fuzz, nproc
#   a fuzz build: CC=clang CXX=clang++ meson setup build-fuzz --buildtype=plain -Doptimization=1 \
#     -Db_sanitize=address,undefined -Db_lundef=false -Dfuzz=true && ninja -C build-fuzz fuzz-harnesses
set -uo pipefail
here=$(dirname "$(realpath "$0")")
root=$(realpath "$here/../..")
seconds=${1:-600}
machine=${2:-host-$(nproc)-cores}
fuzz_build=${3:-build-fuzz}
tools_build=${4:-build-test}
work=${5:-/tmp/starlens-bench-fuzz}
jobs=${6:-$(nproc)}
results=$here/results/$machine
mkdir -p "$results" "$work"
{
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "compiler: $(clang++ --version | head -1)"
  echo "command: bench/fuzz/run.sh $seconds $machine $fuzz_build $tools_build $work $jobs"
} | tee "$results/machine.txt"
rm -rf "$work/seeds"
bash "$root/fuzz/make_seeds.sh" "$tools_build" "$work/seeds" | tee -a "$results/machine.txt"
bash "$root/fuzz/run_all.sh" --keep-going "$fuzz_build" "$work/seeds" "$seconds" "$jobs" "$work/runs"
status=$?
cp "$work/runs/summary.tsv" "$results/summary.tsv"
: >"$results/libfuzzer_stats.txt"
for log in "$work"/runs/*.log; do
  { echo "== $(basename "$log" .log)"; grep -E '^stat::|^#[0-9]+.*DONE|INFO: Seed|INFO: -max_len' "$log"; } \
    >>"$results/libfuzzer_stats.txt"
done
python3 "$here/triage.py" "$work/runs" | sed "s|$work/||g" >"$results/findings.tsv"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$results/machine.txt"
exit $status
