#!/usr/bin/env bash
# The main job behind `make demo`: a Schwarzschild hole (r_obs 30 M) in front of the galactic
# centre over Stellarium's 603,418 real stars, 1920x1080, fov 60 deg, rendered stage by stage
# through pipeline.mk into OUT_DIR (out/demo.exr, out/demo.png and every stage's manifest), and
# a picture of the lens map's magnification (out/lensmap-mu.png).
# The GPU backend is used when the build has one.
set -euo pipefail
build=${1:-build}
out=${2:-out}
backend=cpu
if "$build/tools/splat/starlens-splat" --version | grep -qv 'gpu none'; then backend=gpu; fi
quiet=""
[ -t 2 ] || quiet=--quiet
make --no-print-directory -f pipeline.mk sl-frame STARLENS=. STARLENS_BUILD="$build" \
  SL_OUT="$out" SL_FRAME=demo BACKEND="$backend" QUIET="$quiet"
# The lens map's magnification with its critical curves, as a raster and a picture.
"$build/tools/trace/starlens-trace" inspect "$out/lensmap.h5" --quantity mu,parity,source,critical \
  --raster "$out/lensmap-mu.fits" --force >/dev/null
PYTHONPATH=python /usr/bin/python3 -m starlens.pictures raster "$out/lensmap-mu.fits" --plane mu \
  -o "$out/lensmap-mu.png"
echo "demo: wrote $out/demo.exr, $out/demo.png, the lens map's magnification $out/lensmap-mu.png" \
  "and the manifests of every stage in $out/"
