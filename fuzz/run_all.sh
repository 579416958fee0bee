#!/usr/bin/env bash
# Runs every harness of a -Dfuzz=true build for SECONDS each, JOBS at a time, on the seed
# corpora of fuzz/make_seeds.sh; prints the table of run_harness.sh's summaries (also written
# to RESULTS_DIR/summary.tsv) and exits 1 if any harness had a finding.
# usage: fuzz/run_all.sh [--keep-going] FUZZ_BUILD_DIR SEEDS_DIR SECONDS JOBS RESULTS_DIR
set -uo pipefail
keep=()
if [ "${1:-}" = --keep-going ]; then keep=(--keep-going); shift; fi
build=$1 seeds=$2 seconds=$3 jobs=$4 results=$5
here=$(dirname "$(realpath "$0")")
mkdir -p "$results"
harnesses=$(find "$build/fuzz" -maxdepth 1 -type f -name '*_fuzz' -perm -u+x | sort)
[ -n "$harnesses" ] || { echo "run_all.sh: no harnesses in $build/fuzz (configure with -Dfuzz=true)" >&2; exit 2; }
: >"$results/summary.unsorted"
for harness in $harnesses; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  name=$(basename "$harness" _fuzz)
  bash "$here/run_harness.sh" "${keep[@]}" "$harness" "$seeds/$name" "$seconds" "$results" \
    >>"$results/summary.unsorted" &
done
wait
{
  printf 'harness\tseconds\texecutions\tcoverage\tfeatures\tcorpus\tfindings\n'
  sort "$results/summary.unsorted"
} >"$results/summary.tsv"
rm -f "$results/summary.unsorted"
column -t -s $'\t' "$results/summary.tsv"
failed=$(awk -F'\t' 'NR > 1 && $7 > 0 {print $1}' "$results/summary.tsv" | tr '\n' ' ')
if [ -n "$failed" ]; then
  echo "fuzz: findings in: $failed(reproducers and logs under $results)"
  for name in $failed; do
    grep -m3 -E 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error|terminate called|SUMMARY' \
      "$results/$name.log" | sed "s|^|  $name: |"
  done
  exit 1
fi
