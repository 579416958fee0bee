#!/usr/bin/env bash
# starlens-trace --orbit-map: a frame of a circular orbit made from another frame's map, turned
# about the orbit's axis, against the same frame traced ray by ray (the reference: an
# independent computation of every ray) for a Schwarzschild and a Kerr (a = 0.9) orbit: the same
# mesh (positions, triangles, status, parity), g and mu to the last bits' noise and every source
# direction within the trace's own conditioning (a rounding of the camera's axes, amplified
# next to the shadow); bad uses exit 2 with one line naming the file or flag, writing nothing.
# usage: orbit_map_cli.sh STARLENS_TRACE
set -uo pipefail
trace=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"
python3() { if [ -x /usr/bin/python3 ]; then /usr/bin/python3 "$@"; else command python3 "$@"; fi; }
cd "$work"
small=(--width 160 --height 90 --fov 60 --quiet)

cat >orbit.json <<'JSON'
{"fps": 24, "frames": 48, "time_per_second": 40,
 "worldline": {"type": "orbit", "r": 8, "phi": 30, "direction": "prograde"},
 "look": {"dlon": 6, "dlat": -3, "roll": 10}}
JSON
cat >kerr.json <<'JSON'
{"fps": 24, "frames": 48, "time_per_second": 30,
 "worldline": {"type": "orbit", "r": 6, "phi": 180, "direction": "prograde"},
 "look": {"dlon": 0, "dlat": 0, "roll": 0}}
JSON

compare_maps() {  # compare_maps TRACED ROTATED LABEL
  python3 - "$1" "$2" <<'PY' || fail "$3: the turned map differs from the traced one"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1]), h5py.File(sys.argv[2])
for name in ("vertices/xy", "vertices/status", "triangles/v", "triangles/parity", "triangles/depth"):
    assert np.array_equal(a[name][:], b[name][:]), name
escaped = a["vertices/status"][:] == 0
da, db = a["vertices/dir"][:][escaped], b["vertices/dir"][:][escaped]
assert np.all(np.isnan(b["vertices/dir"][:][~escaped])), "captured rays keep NaN directions"
d = np.linalg.norm(da - db, axis=1)
p99, worst = np.quantile(d, 0.99), d.max()
print(f"dir p50 {np.median(d):.2e} p99 {p99:.2e} max {worst:.2e}")
assert np.median(d) < 1e-13 and p99 < 1e-11 and worst < 1e-7, (np.median(d), p99, worst)
ga, gb = a["vertices/g"][:][escaped], b["vertices/g"][:][escaped]
assert np.max(np.abs(ga - gb) / ga) < 1e-12
ma, mb = a["triangles/mu"][:], b["triangles/mu"][:]
assert np.max(np.abs(ma - mb) / np.abs(ma)) < 1e-6, np.max(np.abs(ma - mb) / np.abs(ma))
for key in ("bh_ra_deg", "bh_dec_deg", "look_ra_deg", "look_dec_deg", "path_frame", "path_time",
            "roll_deg", "r_obs"):
    assert a.attrs[key] == b.attrs[key], (key, a.attrs[key], b.attrs[key])
va, vb = a.attrs.get("observer_velocity"), b.attrs.get("observer_velocity")
assert (va is None) == (vb is None) and (va is None or np.array_equal(va, vb)), (va, vb)
PY
}

expect 0 "" "$trace" "${small[@]}" --path orbit.json --frame 0 -o s0.h5
expect 0 "" "$trace" "${small[@]}" --path orbit.json --frame 17 -o s17.h5
expect 0 "" "$trace" "${small[@]}" --path orbit.json --frame 17 --orbit-map s0.h5 -o r17.h5
compare_maps s17.h5 r17.h5 schwarzschild
# Frame 0 from itself: bit for bit (a turn by 0 is the identity).
expect 0 "" "$trace" "${small[@]}" --path orbit.json --frame 0 --orbit-map s0.h5 -o r0.h5
python3 -c "
import sys, h5py, numpy as np
a, b = h5py.File('s0.h5'), h5py.File('r0.h5')
assert np.array_equal(a['vertices/dir'][:], b['vertices/dir'][:], equal_nan=True)
assert np.array_equal(a['triangles/mu'][:], b['triangles/mu'][:])" || fail "frame 0 from itself is not bitwise"
python3 -c "import json; c = json.load(open('r17.h5.manifest.json'))['counts']; \
assert c['traced_rays'] == 0 and c['orbit_map']['source_frame'] == 0, c" || fail "manifest counts"
kerr=(--spacetime kerr --spin 0.9 "${small[@]}")
expect 0 "" "$trace" "${kerr[@]}" --path kerr.json --frame 40 -o k40.h5
expect 0 "" "$trace" "${kerr[@]}" --path kerr.json --frame 9 -o k9.h5
expect 0 "" "$trace" "${kerr[@]}" --path kerr.json --frame 9 --orbit-map k40.h5 -o kr9.h5
compare_maps k9.h5 kr9.h5 kerr

# Bad uses: exit 2, one line, nothing written.
expect 2 "--orbit-map: needs --path" "$trace" "${small[@]}" --orbit-map s0.h5 -o bad.h5
cat >infall.json <<'JSON'
{"fps": 24, "frames": 48, "time_per_second": 40, "worldline": {"type": "infall", "r0": 30}}
JSON
expect 2 "infall.json: worldline: --orbit-map needs a circular orbit" \
  "$trace" "${small[@]}" --path infall.json --frame 3 --orbit-map s0.h5 -o bad.h5
cat >fixed.json <<'JSON'
{"fps": 24, "frames": 48, "time_per_second": 40,
 "worldline": {"type": "orbit", "r": 8, "phi": 30}, "look": {"at": [10, 20]}}
JSON
expect 2 "fixed.json: worldline: --orbit-map needs" \
  "$trace" "${small[@]}" --path fixed.json --frame 3 --orbit-map s0.h5 -o bad.h5
expect 2 "k40.h5: path: is not this path's file" \
  "$trace" "${small[@]}" --path orbit.json --frame 3 --orbit-map k40.h5 -o bad.h5
expect 2 "s0.h5: width: is 160, this frame's trace has 120" \
  "$trace" --width 120 --height 90 --fov 60 --quiet --path orbit.json --frame 3 --orbit-map s0.h5 -o bad.h5
expect 2 "s0.h5: mesh_tol" \
  "$trace" "${small[@]}" --mesh-tol 0.02 --path orbit.json --frame 3 --orbit-map s0.h5 -o bad.h5
expect 2 "missing.h5" "$trace" "${small[@]}" --path orbit.json --frame 3 --orbit-map missing.h5 -o bad.h5
head -c 4000 s0.h5 >cut.h5
expect 2 "cut.h5" "$trace" "${small[@]}" --path orbit.json --frame 3 --orbit-map cut.h5 -o bad.h5
ls bad.h5* >/dev/null 2>&1 && fail "a refused run left bad.h5"

[ "$failures" = 0 ] && echo "orbit map: all checks passed"
exit $((failures > 0))
