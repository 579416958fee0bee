#!/usr/bin/env bash
# starlens-trace --path/--frame: a frame of a circular orbit traces the same rays as the
# explicit flags of that frame's camera (the hole at galactic longitude phi + 180 degrees,
# phi from the closed form phi0 + tau sqrt(M/r^3) / sqrt(1 - 3M/r), the camera moving west on
# the sky at v = sqrt(M/(r - 2M))), and the lens map records the path, the frame and its
# proper time; bad paths and flags exit 2 with one line naming the file or flag, writing nothing.
# usage: path_cli.sh STARLENS_TRACE
set -uo pipefail
trace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"
python_package=$(cd "$(dirname "$0")/../../../python" && pwd)
# Debian's python3 (python3-h5py, python3-numpy) ahead of any other on PATH.
python3() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }
cd "$work"
small=(--width 64 --height 36 --fov 60 --mesh-step 8 --quiet)

cat >orbit.json <<'JSON'
{"fps": 24, "frames": 48, "time_per_second": 240,
 "worldline": {"type": "orbit", "r": 12, "phi": 10, "direction": "prograde"},
 "look": {"dlon": 4, "roll": 15}}
JSON
expect 0 "" "$trace" "${small[@]}" --path orbit.json --frame 5 -o path.h5
# Frame 5: tau = 5 * 240 / 24 = 50 M.
read -r lon speed <<<"$(python3 -c '
import math
r, tau = 12.0, 50.0
phi = 10 + math.degrees(tau * math.sqrt(1 / r**3) / math.sqrt(1 - 3 / r))
print(f"{(phi + 180) % 360:.15f}", math.sqrt(1 / (r - 2)))')"
expect 0 "" "$trace" "${small[@]}" --r-obs 12 --bh-l "$lon" --bh-b 0 --observer orbit \
  --orbit-pa 270 --look-dlon 4 --roll 15 -o flags.h5
python3 - path.h5 flags.h5 orbit.json "$lon" "$speed" <<'PY' || fail "path frame differs from its flags"
import sys, h5py, numpy as np
path, flags = h5py.File(sys.argv[1]), h5py.File(sys.argv[2])
lon, speed = float(sys.argv[4]), float(sys.argv[5])
a = path.attrs
text = a["path"].decode() if isinstance(a["path"], bytes) else a["path"]
assert text == open(sys.argv[3]).read(), text
assert int(a["path_frame"]) == 5 and abs(float(a["path_time"]) - 50) < 1e-12, dict(a)
assert abs(float(a["bh_lon_deg"]) - lon) < 1e-9 and float(a["r_obs"]) == 12, dict(a)
v = np.array([a["observer_vx"], a["observer_vy"], a["observer_vz"]], dtype=float)
assert abs(np.linalg.norm(v) - speed) < 1e-14, (v, speed)
assert "path" not in flags.attrs
for name in ("vertices/xy", "vertices/dir", "vertices/g", "vertices/status", "triangles/v",
             "triangles/mu", "triangles/parity"):
    x, y = path[name][...], flags[name][...]
    assert x.shape == y.shape, (name, x.shape, y.shape)
    assert np.allclose(x, y, rtol=0, atol=1e-9, equal_nan=True), name
PY
PYTHONPATH="$python_package" python3 - path.h5 orbit.json <<'PY' || fail "python reader: path attributes"
import sys
from starlens.lensmap import read_lensmap
a = read_lensmap(sys.argv[1]).attributes
assert a["path"] == open(sys.argv[2]).read() and a["path_frame"] == 5 and a["path_time"] == 50, a
PY
python3 - path.h5.manifest.json <<'PY' || fail "manifest lacks the path"
import json, sys
m = json.load(open(sys.argv[1]))
assert any(i["role"] == "path" for i in m["inputs"]), m["inputs"]
assert m["parameters"]["path_frame"] == 5 and m["parameters"]["path_time"] == 50
PY
# A replay from the manifest reads the path again (its hash checked).
expect 0 "" "$trace" --from-manifest path.h5.manifest.json -o replay.h5
cmp -s path.h5 replay.h5 || fail "replayed path frame differs"

# Refusals: exit 2, one line, nothing written.
expect 2 "orbit.json: frames: frame 48 is outside 0..47" "$trace" "${small[@]}" --path orbit.json --frame 48 -o bad.h5
expect 2 "--frame: required with --path" "$trace" "${small[@]}" --path orbit.json -o bad.h5
expect 2 "--frame: needs --path" "$trace" "${small[@]}" --frame 1 -o bad.h5
expect 2 "--r-obs: not with --path" "$trace" "${small[@]}" --path orbit.json --frame 1 --r-obs 9 -o bad.h5
expect 2 "--path: camera paths are Schwarzschild or Kerr worldlines" "$trace" "${small[@]}" --spacetime minkowski --path orbit.json --frame 1 -o bad.h5
echo '{"fps": 24, "frames": 4, "worldline": {"type": "orbit", "r": 12}}' >nofield.json
expect 2 "nofield.json: time_per_second: " "$trace" "${small[@]}" --path nofield.json --frame 1 -o bad.h5
echo '{"fps": 24, "frames": 4, "time_per_second": "fast", "worldline": {"type": "orbit", "r": 12}}' >type.json
expect 2 "type.json: time_per_second: expected a number" "$trace" "${small[@]}" --path type.json --frame 1 -o bad.h5
echo '{"fps": 24, "frames": 4, "time_per_second": 1, "worldline": {"type": "orbit", "r": 1.5}}' >inside.json
expect 2 "inside.json: worldline.r: " "$trace" "${small[@]}" --path inside.json --frame 1 -o bad.h5
echo '{"fps": 24, "frames": 4, "time_per_second": 1, "worldline": {"type": "orbit", "r": 4}}' >isco.json
expect 2 "isco.json: worldline.r: .*ISCO" "$trace" "${small[@]}" --path isco.json --frame 1 -o bad.h5
expect 2 "missing.json" "$trace" "${small[@]}" --path missing.json --frame 1 -o bad.h5
[ -e bad.h5 ] || [ -e bad.h5.manifest.json ] && fail "a refused run wrote an output"
ls | grep -q '\.tmp' && fail "temporary file left behind"

# An infall frame: from rest at r0 = 40, the cycloid r = (r0/2)(1 + cos eta).
echo '{"fps": 10, "frames": 20, "time_per_second": 100, "worldline": {"type": "infall", "r0": 40, "phi": 0}}' >fall.json
expect 0 "" "$trace" "${small[@]}" --path fall.json --frame 12 -o fall.h5
python3 - fall.h5 <<'PY' || fail "infall frame"
import sys, math, h5py
a = h5py.File(sys.argv[1]).attrs
tau, r0 = 120.0, 40.0
lo, hi = 0.0, math.pi  # eta + sin(eta) = tau / sqrt(r0^3 / 8), by bisection
for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if mid + math.sin(mid) < tau / math.sqrt(r0**3 / 8) else (lo, mid)
r = r0 / 2 * (1 + math.cos(lo))
assert abs(float(a["r_obs"]) - r) < 1e-9 * r0, (float(a["r_obs"]), r)
speed = math.sqrt(1 - (1 - 2 / r) / (1 - 2 / r0))
v = math.sqrt(sum(float(a[k]) ** 2 for k in ("observer_vx", "observer_vy", "observer_vz")))
assert abs(v - speed) < 1e-9, (v, speed)
assert abs(float(a["bh_lon_deg"]) - 180) < 1e-12 and a["observer"] in (b"velocity", "velocity")
PY

# A fly-by frame at periapsis: r_p, moving along e_phi only (west on the sky, as the orbit).
echo '{"fps": 10, "frames": 3, "time_per_second": 10, "start_time": -1, "worldline": {"type": "flyby", "periapsis": 9, "speed": 0.3}}' >flyby.json
expect 0 "" "$trace" "${small[@]}" --path flyby.json --frame 1 -o flyby.h5
python3 - flyby.h5 <<'PY' || fail "fly-by frame"
import sys, math, h5py
a = h5py.File(sys.argv[1]).attrs
rp, E = 9.0, 1 / math.sqrt(1 - 0.09)
assert float(a["r_obs"]) == rp and float(a["path_time"]) == 0, dict(a)
v = math.sqrt(sum(float(a[k]) ** 2 for k in ("observer_vx", "observer_vy", "observer_vz")))
assert abs(v - math.sqrt(1 - (1 - 2 / rp) / E**2)) < 1e-12, v
PY

# A Kerr orbit's frame (a = 0.9, prograde at r = 4): the same rays as the explicit flags, the
# hole at phi + 180 with phi = phi0 + Omega u^t tau from Bardeen, Press & Teukolsky.
cat >kerr-orbit.json <<'JSON'
{"fps": 24, "frames": 48, "time_per_second": 240,
 "worldline": {"type": "orbit", "r": 4, "phi": 10, "direction": "prograde"}}
JSON
expect 0 "" "$trace" "${small[@]}" --spacetime kerr --spin 0.9 --path kerr-orbit.json --frame 5 \
  -o kerr-path.h5
lon=$(python3 -c '
import math
a, r, tau = 0.9, 4.0, 50.0
omega = 1 / (r**1.5 + a)
u_t = (r**1.5 + a) / (r**0.75 * math.sqrt(r**1.5 - 3 * math.sqrt(r) + 2 * a))
print(f"{(10 + math.degrees(omega * u_t * tau) + 180) % 360:.15f}")')
expect 0 "" "$trace" "${small[@]}" --spacetime kerr --spin 0.9 --r-obs 4 --bh-l "$lon" --bh-b 0 \
  --observer orbit -o kerr-flags.h5
python3 - kerr-path.h5 kerr-flags.h5 "$lon" <<'PY' || fail "kerr path frame differs from its flags"
import sys, h5py, numpy as np
path, flags = h5py.File(sys.argv[1]), h5py.File(sys.argv[2])
assert abs(float(path.attrs["bh_lon_deg"]) - float(sys.argv[3])) < 1e-9, dict(path.attrs)
assert float(path.attrs["spin"]) == 0.9 and float(path.attrs["inclination_deg"]) == 90
for name in ("vertices/xy", "vertices/dir", "vertices/g", "vertices/status", "triangles/mu"):
    x, y = path[name][...], flags[name][...]
    assert x.shape == y.shape and np.allclose(x, y, rtol=0, atol=1e-9, equal_nan=True), name
PY
# Kerr falls come from infinity; a Kerr path needs the spin.
echo '{"fps": 10, "frames": 20, "time_per_second": 1, "worldline": {"type": "infall", "r0": 20, "theta": 60, "from": "infinity"}}' >kerr-fall.json
expect 0 "" "$trace" "${small[@]}" --spacetime kerr --spin 0.9 --path kerr-fall.json --frame 19 \
  -o kerr-fall.h5
echo '{"fps": 10, "frames": 20, "time_per_second": 1, "worldline": {"type": "infall", "r0": 20}}' >kerr-rest.json
expect 2 "kerr-rest.json: worldline: kerr falls start from rest at infinity" "$trace" \
  "${small[@]}" --spacetime kerr --spin 0.9 --path kerr-rest.json --frame 1 -o bad.h5
expect 2 "--spin: required with --spacetime kerr" "$trace" "${small[@]}" --spacetime kerr \
  --path kerr-fall.json --frame 1 -o bad.h5
expect 2 "--inclination: not with --path" "$trace" "${small[@]}" --spacetime kerr --spin 0.9 \
  --inclination 30 --path kerr-fall.json --frame 1 -o bad.h5
[ -e bad.h5 ] && fail "a refused Kerr path run wrote an output"

echo "path_cli: $failures failure(s)"
[ "$failures" = 0 ]
