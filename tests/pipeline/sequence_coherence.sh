#!/usr/bin/env bash
# Temporal coherence of a sequence: 8 frames of a slow circular orbit (r = 2000 M, the camera
# looking at the hole, about 1 degree of azimuth a frame) rendered through pipeline.mk's
# sl-sequence, one star 15 degrees west of the hole. The star's brightest image must move
# from frame to frame as the closed form predicts: the camera turns with the orbit at
# dphi/dtau = sqrt(M/r^3) / sqrt(1 - 3M/r), so the star's direction relative to the camera
# turns by that times the frame's proper-time step, which the pinhole places at
# f tan(angle) (lensing and aberration at this radius change the step by under 2 per cent; 5 allowed);
# the step may change only slowly (no jump), the image stays on its row, and the star's total
# flux over its images varies smoothly.
# usage: sequence_coherence.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
source_root=$1 build_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }

cat >"$work/path.json" <<'JSON'
{"frame": "icrs", "fps": 24, "frames": 8, "time_per_second": 37500,
 "worldline": {"type": "orbit", "r": 2000, "phi": 0}}
JSON
printf 'ra,dec,mag,teff\n165,0,3,5800\n' >"$work/star.csv"
make --no-print-directory -j2 -f "$source_root/pipeline.mk" sl-sequence STARLENS="$source_root" \
  STARLENS_BUILD="$build_root" SL_OUT="$work/out" CATALOG_COMMAND="ingest $work/star.csv --band V" \
  PATH_FILE="$work/path.json" WIDTH=320 HEIGHT=180 FOV=60 MESH_STEP=8 THREADS=1 \
  >"$work/log" 2>&1 || { cat "$work/log"; echo "FAIL: sequence"; exit 1; }

PYTHONPATH="$source_root/python" python3 - "$work/out/sequence" <<'PY'
import math, sys
from starlens.events import read_events
seq = sys.argv[1]
width, fov, frames = 320, math.radians(60), 8
r, tau_step, star_offset = 2000.0, 37500.0 / 24, math.radians(-15)  # the star west of the hole
focal = width / 2 / math.tan(fov / 2)
omega = math.sqrt(1 / r**3) / math.sqrt(1 - 3 / r)  # dphi/dtau, closed form
xs, ys, fluxes = [], [], []
for n in range(frames):
    events = [e for chunk in read_events(f"{seq}/{n:05d}/events.sle") for e in chunk.events]
    assert events, f"frame {n}: no image of the star"
    brightest = max(events, key=lambda e: e["flux"])
    xs.append(float(brightest["x"]))
    ys.append(float(brightest["y"]))
    fluxes.append(sum(float(e["flux"]) for e in events))
failures = 0
def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL:", what)
ratios = []
for n in range(frames - 1):
    # The hole moves east by omega tau_step a frame, so the star's angle west of it grows.
    a0 = -(star_offset - omega * tau_step * n)
    a1 = -(star_offset - omega * tau_step * (n + 1))
    predicted = focal * (math.tan(a1) - math.tan(a0))
    step = xs[n + 1] - xs[n]
    ratios.append(step / predicted)
    check(abs(step / predicted - 1) < 0.05,
          f"frame {n}->{n + 1}: image moved {step:.4f} px, the orbit predicts {predicted:.4f} px")
    check(abs(ys[n + 1] - ys[n]) < 0.05, f"frame {n}->{n + 1}: image left its row ({ys[n]} -> {ys[n + 1]})")
    check(abs(fluxes[n + 1] / fluxes[n] - 1) < 0.01, f"frame {n}->{n + 1}: flux {fluxes[n]} -> {fluxes[n + 1]}")
for n in range(len(ratios) - 1):
    check(abs(ratios[n + 1] - ratios[n]) < 0.01, f"step ratio jumps {ratios[n]:.4f} -> {ratios[n + 1]:.4f}")
for n in range(1, frames - 1):
    second = fluxes[n + 1] - 2 * fluxes[n] + fluxes[n - 1]
    check(abs(second) < 1e-3 * fluxes[n], f"flux not smooth at frame {n}: second difference {second}")
print("steps / predicted:", " ".join(f"{q:.4f}" for q in ratios))
print("flux:", " ".join(f"{f:.6g}" for f in fluxes))
print(f"sequence_coherence: {failures} failure(s)")
sys.exit(1 if failures else 0)
PY
