#!/usr/bin/env bash
# bench/produce/ab.sh: two builds of starlens-produce on the same inputs, in turn (A B A B ...),
# one thread, count sink: events, images by order, and the producer's CPU time per event
# (mapping + colour, thread-seconds), for changes whose cost per event is the question.
# Inputs: a synthetic store of STARS stars (default 2 x 10^6) and the reference scene's
# 1920 x 1080 Schwarzschild map (r_obs 30, fov 45), min-Y MIN_Y (default 1e-10); the map's
# spacetime and size as given.
# OWN_INPUTS=1: each build makes its own store and map (builds whose formats or trace defaults
# differ), and each round also times each build's trace of its map on TRACE_THREADS (2) threads,
# wall and CPU seconds from GNU time.
# usage: bench/produce/ab.sh BUILD_A BUILD_B [WORK_DIR]   env: STARS, MIN_Y, ROUNDS (3),
#   FOV (45), WIDTH (1920), HEIGHT (1080), SPACETIME_ARGS ("--spacetime schwarzschild"),
#   OWN_INPUTS, TRACE_THREADS
set -euo pipefail
a=$1 b=$2
work=${3:-/tmp/starlens-bench-produce-ab}
stars=${STARS:-2000000} min_y=${MIN_Y:-1e-10} rounds=${ROUNDS:-3} fov=${FOV:-45}
own=${OWN_INPUTS:-} trace_threads=${TRACE_THREADS:-2}
mkdir -p "$work"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for build in "$a" "$b"; do echo "build: $("$build/tools/produce/starlens-produce" --version | head -1)"; done
read -r -a spacetime_args <<<"${SPACETIME_ARGS:---spacetime schwarzschild}"
trace_args=("${spacetime_args[@]}" --r-obs 30 --fov "$fov" --width "${WIDTH:-1920}" \
  --height "${HEIGHT:-1080}")
for side in A B; do
  build=$a
  [ "$side" = B ] && build=$b
  inputs=$work
  [ -n "$own" ] && inputs=$work/$side && mkdir -p "$inputs"
  [ -s "$inputs/stars.h5" ] || "$build/tools/catalog/starlens-catalog" synth --count "$stars" \
    --seed 1 -o "$inputs/stars.h5" --quiet --force
  [ -s "$inputs/map.h5" ] || "$build/tools/trace/starlens-trace" "${trace_args[@]}" \
    -o "$inputs/map.h5" --quiet --force
done
for round in $(seq "$rounds"); do
  for side in A B; do
    build=$a
    [ "$side" = B ] && build=$b
    inputs=$work
    [ -n "$own" ] && inputs=$work/$side
    if [ -n "$own" ]; then
      /usr/bin/time -f '%e %U %S' -o "$work/time" "$build/tools/trace/starlens-trace" \
        "${trace_args[@]}" --threads "$trace_threads" -o "$work/$side-map.h5" --quiet --force
      read -r wall user system <"$work/time"
      echo "round $round $side: trace on $trace_threads threads $wall s wall, $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }') s CPU"
    fi
    "$build/tools/produce/starlens-produce" -l "$inputs/map.h5" -c "$inputs/stars.h5" -o "$work/$side.sle" \
      --psf-min-y "$min_y" --sink count --threads 1 --force --quiet
    python3 - "$work/$side.sle.manifest.json" "$side" "$round" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
c, t = m["counts"], m["timings_s"]
per_event = (t["mapping"] + t["colour"]) / c["events"] * 1e6
print(f"round {sys.argv[3]} {sys.argv[2]}: events {c['events']} images by order {c.get('images_by_order', '-')} "
      f"mapping {t['mapping']:.2f} s colour {t['colour']:.2f} s: {per_event:.3f} us an event; "
      f"produce_wall {t['produce_wall']:.2f} s")
PY
  done
done
