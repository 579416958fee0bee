#!/usr/bin/env bash
# The GPU producer against the CPU producer on a machine with a GPU (docs/gpu.md, "Checks on
# the device"): on the produce fixtures (the Minkowski identity map, a star's Schwarzschild
# primary and secondary images, the Einstein ring, 300 000 stars through both maps, --colour
# exact, and the bounded runs --cells, --sky-region, --triangles, --max-events) the stream of
# --backend gpu must be byte-identical to --backend cpu's, and its counts and coverage equal
# (also with --sink count); a bad device index exits 1 naming the phase. Logs go to OUT_DIR.
# usage: gpu_vs_cpu.sh BIN_DIR OUT_DIR
#   BIN_DIR: starlens-produce, starlens-trace and produce_fixtures (built with -Dgpu=cuda|hip).
set -uo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
mkdir -p "$out"
log=$out/gpu_vs_cpu.log
: >"$log"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0
summary=()
record() {  # record NAME STATUS DETAIL
  summary+=("$(printf '%-40s %-5s %s' "$1" "$2" "$3")")
  [ "$2" = ok ] || failures=$((failures + 1))
}
produce=$bin/starlens-produce trace=$bin/starlens-trace fixtures=$bin/produce_fixtures

# The counts, coverage and chunk statistics of a manifest or count report, as one line; not
# the cells read ahead past a --max-events cut, which depend on the reader's timing (two runs
# on one backend differ by a unit).
facts() {
  sed -n '/"counts"/,/^  }/p;/"coverage"/,/^  }/p;/"chunk_statistics"/,/^  }/p' "$1" |
    grep -v -e '_s"' -e 'seconds' -e 'cells_read_past_max_events'
}

# compare NAME ARGS...: the producer on both backends, streams and counts compared.
compare() {
  local name=$1; shift
  "$produce" "$@" -o "cpu-$name.sle" --backend cpu --quiet >>"$log" 2>&1 || { record "$name" FAIL "cpu run"; return; }
  "$produce" "$@" -o "gpu-$name.sle" --backend gpu --quiet >>"$log" 2>&1 || { record "$name" FAIL "gpu run: $(tail -1 "$log")"; return; }
  if ! cmp -s "cpu-$name.sle" "gpu-$name.sle"; then
    record "$name" FAIL "streams differ"; return
  fi
  if ! diff <(facts "cpu-$name.sle.manifest.json") <(facts "gpu-$name.sle.manifest.json") >>"$log"; then
    record "$name" FAIL "counts differ"; return
  fi
  "$produce" "$@" --sink count -o "count-cpu-$name.json" --backend cpu --quiet >>"$log" 2>&1
  "$produce" "$@" --sink count -o "count-gpu-$name.json" --backend gpu --quiet >>"$log" 2>&1 ||
    { record "$name" FAIL "gpu count sink"; return; }
  if ! diff <(facts "count-cpu-$name.json") <(facts "count-gpu-$name.json") >>"$log"; then
    record "$name" FAIL "count sink counts differ"; return
  fi
  record "$name" ok "$(stat -c %s "cpu-$name.sle") bytes identical, counts equal"
}

camera="--bh-ra 100 --bh-dec 20 --fov 40 --width 320 --height 200"
hole="--bh-ra 100 --bh-dec 20 --fov 40 --width 256 --height 256"
{
  "$trace" --spacetime minkowski $camera -o flat.h5 --quiet &&
    awk 'BEGIN { srand(3); for (i = 0; i < 600; i++)  # around the field (40 x 25 deg) and beyond
      printf "%.9f,%.9f,%.1f,%.6g\n", 100 + 70 * rand() - 35, 20 + 50 * rand() - 25,
        2500 + 27500 * rand(), 10 ^ (3 * rand() - 1.5) }' >field.csv &&
    "$fixtures" stars field.csv -o field.h5 --order 4 &&
    "$trace" --spacetime schwarzschild --r-obs 100 $hole --mesh-max-depth 8 -o hole.h5 --quiet &&
    echo "102,22,5800,100" >behind.csv && "$fixtures" stars behind.csv -o behind.h5 --order 4 &&
    "$fixtures" lensmap -o ring.h5 --r-obs 100 $hole --step 2 &&
    echo "100,20,5800,100" >axis.csv && "$fixtures" stars axis.csv -o axis.h5 --order 4 &&
    "$fixtures" uniform --count 300000 --order 5 --seed 4 -o sky.h5
} >>"$log" 2>&1 || { echo "gpu_vs_cpu.sh: fixtures failed (see $log)"; exit 1; }

psf="--psf-min-y 1e-9 --psf-cache-radius 6 --psf-max-radius 12"
compare minkowski_identity -l flat.h5 -c field.h5 --psf-min-y 1e-12
compare minkowski_exact_colour -l flat.h5 -c field.h5 --psf-min-y 1e-12 --colour exact
compare schwarzschild_images -l hole.h5 -c behind.h5 --psf-min-y 1e-12
compare einstein_ring -l ring.h5 -c axis.h5
compare sky_schwarzschild -l hole.h5 -c sky.h5 $psf --chunk-events 500 --block-stars 2000
compare sky_minkowski -l flat.h5 -c sky.h5 $psf
compare sky_one_thread -l hole.h5 -c sky.h5 $psf --threads 1
compare bounded_cells -l flat.h5 -c sky.h5 $psf --cells 1000:2000
compare bounded_sky_region -l flat.h5 -c sky.h5 $psf --sky-region 95,18,6
compare bounded_triangles -l hole.h5 -c sky.h5 $psf --triangles 0:20000
compare bounded_max_events -l flat.h5 -c sky.h5 $psf --max-events 777 --threads 2 --block-stars 500

status=0
"$produce" -l flat.h5 -c field.h5 -o bad.sle --backend gpu --gpu-device 4096 --quiet 2>err.txt || status=$?
if [ "$status" = 1 ] && grep -q "gpu device: " err.txt && [ ! -e bad.sle ] && [ ! -e bad.sle.manifest.json ]; then
  record "bad device index" ok "exit 1: $(head -1 err.txt)"
else
  record "bad device index" FAIL "exit $status: $(head -1 err.txt)"
fi

{
  echo "== summary"
  printf '%s\n' "${summary[@]}"
  echo "$failures failure(s)"
} | tee -a "$log"
[ "$failures" = 0 ]
