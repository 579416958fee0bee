#!/usr/bin/env bash
# The main job behind `make demo`: renders the default scene into OUT_DIR.
# Until the trace, catalog and produce stages land, the scene is a synthetic event field
# with a galactic-centre-like hot spot (DESIGN §9 allows this interim demo).
set -euo pipefail
build=${1:-build}
out=${2:-out}
mkdir -p "$out"
"$build/bench/synth_events/starlens-synth-events" --distribution hotspot --count 2000000 \
  --width 1920 --height 1080 --seed 1 -o "$out/demo.sle" --force
"$build/tools/splat/starlens-splat" -i "$out/demo.sle" -o "$out/demo.exr" --png "$out/demo.png" --force
echo "demo: wrote $out/demo.exr, $out/demo.png and their manifests"
