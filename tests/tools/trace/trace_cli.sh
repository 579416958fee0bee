#!/usr/bin/env bash
# Command-line behaviour of starlens-trace: a map, its manifest and inspect; determinism across
# thread counts and a --from-manifest replay; every bad-input path (exit 2, one line naming the
# flag or file); an interrupted run leaves nothing under the final name.
# usage: trace_cli.sh STARLENS_TRACE
set -uo pipefail
trace=$1
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"

cd "$work"
small=(--width 96 --height 64 --r-obs 10 --fov 90 --quiet)

# A map, its manifest, a summary and a picture.
expect 0 "" "$trace" "${small[@]}" -o map.h5
[ -s map.h5 ] && [ -s map.h5.manifest.json ] || fail "map or manifest missing"
python3 - map.h5.manifest.json <<'PY' || fail "manifest content"
import json, sys
m = json.load(open(sys.argv[1]))
c, p = m["counts"], m["parameters"]
assert m["tool"] == "starlens-trace"
assert c["vertices"] > 0 and c["triangles"] > 0 and c["shadow_triangles"] > 0, c
assert set(c["dropped"]) == {"failed", "status", "orientation", "tolerance", "source_size", "degenerate"}, c
assert sum(c["kept_triangles_by_depth"]) == c["triangles"], c
assert p["r_obs"] == 10 and p["fov_deg"] == 90 and p["mesh_step"] == 4 and p["mesh_max_depth"] == 12, p
assert p["bh_frame"] == "galactic" and abs(p["bh_ra_deg"] - 266.405) < 1e-3, p
for phase in ("trace_and_refine", "write"):
    assert phase in m["timings_s"], phase
# The manifest times the whole run: from the process's start to its outputs' commit.
from datetime import datetime
span = (datetime.fromisoformat(m["end_time"][:-1]) - datetime.fromisoformat(m["start_time"][:-1]))
t = m["timings_s"]
assert t["run_wall"] >= t["trace_and_refine"] + t["write"], t
assert abs(span.total_seconds() - t["run_wall"]) < 0.05, (span, t["run_wall"])
assert m["format_version"] == 2, m["format_version"]
assert m["outputs"][0]["role"] == "lensmap" and m["outputs"][0]["hash"] == "sha256-tree-4MiB"
assert len(m["outputs"][0]["sha256_tree"]) == 64
s = c["azimuth_series"]
assert p["ray_azimuth"] == "series" and 0 < s["pieces"] <= 1024 and s["worst_check_error_in_tolerances"] <= 1, s
PY
expect 0 "" "$trace" inspect map.h5
for field in "spacetime     schwarzschild" "vertices" "triangles" "dropped" "depth" "magnification"; do
  grep -q "$field" stdout || fail "inspect summary lacks '$field'"
done
expect 0 "" "$trace" inspect map.h5 --png map.png --edges
[ "$(head -c 8 map.png | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ] || fail "map.png is not a PNG"

# Deterministic: the same map with 1 and 2 threads, and a replay from the manifest.
expect 0 "" "$trace" "${small[@]}" --threads 1 -o one.h5
expect 0 "" "$trace" "${small[@]}" --threads 2 -o two.h5
cmp -s one.h5 two.h5 || fail "maps differ between 1 and 2 threads"
expect 0 "" "$trace" --from-manifest one.h5.manifest.json -o replay.h5
cmp -s one.h5 replay.h5 || fail "replayed map differs"
# The closed form for every ray refines the same mesh (the rays agree: tests/common/spacetime).
expect 0 "" "$trace" "${small[@]}" --ray-azimuth closed-form -o closed.h5
python3 - one.h5.manifest.json closed.h5.manifest.json <<'PY' || fail "closed-form map differs in its counts"
import json, sys
a, b = (json.load(open(f))["counts"] for f in sys.argv[1:])
for key in ("vertices", "triangles", "traced_rays", "dropped"):
    assert a[key] == b[key], (key, a[key], b[key])
assert "azimuth_series" not in b
PY
expect 0 "" "$trace" "${small[@]}" --spacetime minkowski -o flat.h5
python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["parameters"]; assert p["ray_azimuth"] == "none", p' \
  flat.h5.manifest.json || fail "a Minkowski map names an azimuth evaluation"
# A manifest from before --ray-azimuth (no such parameter or flag) replays with the closed form.
python3 - closed.h5.manifest.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["parameters"]["ray_azimuth"]
at = m["argv"].index("--ray-azimuth")
del m["argv"][at:at + 2]
json.dump(m, open("older.manifest.json", "w"))
PY
expect 0 "outputs and counts match" "$trace" --from-manifest older.manifest.json -o older-replay.h5
cmp -s closed.h5 older-replay.h5 || fail "an older manifest's replay differs from its map"

# Outputs are not overwritten without --force.
expect 2 "output exists (use --force" "$trace" "${small[@]}" -o map.h5
expect 0 "" "$trace" "${small[@]}" -o map.h5 --force
touch stale.h5.manifest.json
expect 2 "stale.h5.manifest.json: output exists" "$trace" "${small[@]}" -o stale.h5
[ -e stale.h5 ] && fail "refused run left stale.h5"

# Bad arguments: exit 2, one line naming the flag.
expect 2 "--r-obs" "$trace" "${small[@]}" --r-obs 3 -o bad.h5
expect 2 "--r-obs" "$trace" "${small[@]}" --r-obs 2.5 -o bad.h5
expect 2 "--r-obs" "$trace" "${small[@]}" --r-obs nan -o bad.h5
# Kerr: bad spin, observers inside the horizon or (static) the ergosphere, unbuilt motions,
# Kerr flags without Kerr; a small Kerr map from a ZAMO inside the ergosphere reads back.
expect 2 "--spin" "$trace" "${small[@]}" --spacetime kerr -o bad.h5
expect 2 "--spin" "$trace" "${small[@]}" --spacetime kerr --spin 1 -o bad.h5
expect 2 "--spin" "$trace" "${small[@]}" --spacetime kerr --spin -1.2 -o bad.h5
expect 2 "--r-obs" "$trace" "${small[@]}" --spacetime kerr --spin 0.5 --r-obs 1.8 -o bad.h5
near=(--width 96 --height 64 --r-obs 1.95 --fov 90 --quiet)
expect 2 "--observer" "$trace" "${near[@]}" --spacetime kerr --spin 0.9 -o bad.h5
# Kerr orbits: equatorial only, outside the circular photon orbit of their sense (3.91 M
# retrograde for a = 0.9, 1.56 M prograde), their direction by --orbit-direction; velocities
# below c.
tiny=(--width 96 --height 64 --fov 90 --quiet)
expect 2 "--inclination: --observer orbit: kerr circular orbits are equatorial" "$trace" \
  "${small[@]}" --spacetime kerr --spin 0.9 --observer orbit --inclination 60 -o bad.h5
expect 2 "--r-obs: --observer orbit: no timelike retrograde circular orbit at or inside the circular photon orbit r_ph = 3.9" \
  "$trace" "${tiny[@]}" --r-obs 3.9 --spacetime kerr --spin 0.9 --observer orbit \
  --orbit-direction retrograde -o bad.h5
expect 2 "--r-obs: --observer orbit: no timelike prograde" "$trace" "${tiny[@]}" --r-obs 1.5 \
  --spacetime kerr --spin 0.9 --observer orbit -o bad.h5
expect 2 "--orbit-pa: kerr orbits lie in the equatorial plane" "$trace" "${small[@]}" \
  --spacetime kerr --spin 0.9 --observer orbit --orbit-pa 30 -o bad.h5
expect 2 "--orbit-direction: 'sideways' is not prograde or retrograde" "$trace" "${small[@]}" \
  --spacetime kerr --spin 0.9 --observer orbit --orbit-direction sideways -o bad.h5
expect 2 "--orbit-direction: needs --spacetime kerr --observer orbit" "$trace" "${small[@]}" \
  --observer orbit --orbit-direction prograde -o bad.h5
expect 2 "--orbit-direction: needs --spacetime kerr --observer orbit" "$trace" "${small[@]}" \
  --spacetime kerr --spin 0.9 --observer infall --orbit-direction prograde -o bad.h5
expect 2 "--velocity: speed 1.063015 c is not below the speed of light" "$trace" "${small[@]}" \
  --spacetime kerr --spin 0.9 --observer velocity --velocity 0.8,0.7,0 -o bad.h5
expect 2 "--inclination" "$trace" "${small[@]}" --spacetime kerr --spin 0.9 --inclination 181 -o bad.h5
expect 2 "--spin-pa" "$trace" "${small[@]}" --spin-pa 10 -o bad.h5
expect 2 "--observer" "$trace" "${small[@]}" --observer zamo -o bad.h5
[[ ! -e "$work/bad.h5" ]] || fail "a refused Kerr run left bad.h5"
expect 0 "" "$trace" "${near[@]}" --spacetime kerr --spin 0.9 --inclination 30 --spin-pa 45 \
  --observer zamo -o kerr.h5
expect 0 "" "$trace" inspect kerr.h5  # the reader takes the Kerr attributes and "zamo"
# A prograde orbit inside the ISCO (2.32 M: unstable, still a geodesic) inside the ergosphere,
# and a fall at inclination 30: the lens map and manifest record the motion relative to the ZAMO.
expect 0 "" "$trace" "${near[@]}" --spacetime kerr --spin 0.9 --observer orbit -o kerr-orbit.h5
expect 0 "" "$trace" "${small[@]}" --spacetime kerr --spin 0.9 --inclination 30 \
  --observer infall -o kerr-infall.h5
expect 0 "" "$trace" inspect kerr-orbit.h5
python3 - kerr-orbit.h5.manifest.json kerr-infall.h5.manifest.json <<'PY' || fail "kerr motions' manifests"
import json, math, sys
orbit, infall = (json.load(open(f))["parameters"] for f in sys.argv[1:])
# Prograde at r = 1.95, a = 0.9 (BPT): v = varpi (Omega - omega) / alpha along e_phi.
a, r = 0.9, 1.95
big_a = (r * r + a * a) ** 2 - a * a * (r * r - 2 * r + a * a)
alpha, omega, varpi = math.sqrt(r * r * (r * r - 2 * r + a * a) / big_a), 2 * a * r / big_a, math.sqrt(big_a) / r
v = varpi * (1 / (r ** 1.5 + a) - omega) / alpha
assert orbit["observer"] == "orbit", orbit
assert abs(math.hypot(*orbit["observer_velocity_icrs"]) - v) < 1e-12, (orbit, v)
# E = 1, L = 0, Q = 0 from r = 10, theta = 30 deg: 1 - alpha^2 = 2 r (r^2 + a^2) / A.
r, c2 = 10, math.cos(math.radians(30)) ** 2
big_a = (r * r + a * a) ** 2 - a * a * (r * r - 2 * r + a * a) * (1 - c2)
assert infall["observer"] == "infall", infall
assert abs(math.hypot(*infall["observer_velocity_icrs"]) - math.sqrt(2 * r * (r * r + a * a) / big_a)) < 1e-12
PY
expect 2 "--r-obs" "$trace" "${small[@]}" --r-obs -1 --spacetime minkowski -o bad.h5
expect 2 "--fov" "$trace" "${small[@]}" --fov 180 -o bad.h5
expect 2 "--fov" "$trace" "${small[@]}" --fov 0 -o bad.h5
expect 2 "--fov" "$trace" "${small[@]}" --projection equirect --fov 180 -o bad.h5
expect 2 "--fov" "$trace" "${small[@]}" --projection fisheye --fov 400 -o bad.h5
expect 2 "--projection" "$trace" "${small[@]}" --projection mercator -o bad.h5
expect 2 "--ray-azimuth" "$trace" "${small[@]}" --ray-azimuth table -o bad.h5
expect 2 "--width" "$trace" "${small[@]}" --width 0 -o bad.h5
expect 2 "--height" "$trace" "${small[@]}" --height 0 -o bad.h5
expect 2 "--width" "$trace" "${small[@]}" --width -5 -o bad.h5
# The frame limits of every format (each side to 65536 px, 2^28 pixels), and the narrowest fov
# (without ${small[@]}, whose own --width and --fov would make these CLI11's duplicate errors).
limits=(--r-obs 10 --quiet -o bad.h5)
expect 2 "--width: must be 1..65536, got 70000" "$trace" "${limits[@]}" --width 70000 --height 64
expect 2 "--width x --height: 65536 x 8192 = 536870912 pixels" "$trace" "${limits[@]}" \
  --width 65536 --height 8192
expect 2 "--fov: pinhole needs 0.001 <= fov < 180" "$trace" "${limits[@]}" --width 96 --height 64 \
  --fov 1e-308
[ ! -e bad.h5 ] || fail "a refused trace left its output"
expect 2 "unknown spacetime 'kerr-newman'" "$trace" "${small[@]}" --spacetime kerr-newman -o bad.h5
expect 2 "--mesh-step" "$trace" "${small[@]}" --mesh-step 0 -o bad.h5
expect 2 "--mesh-tol" "$trace" "${small[@]}" --mesh-tol -0.1 -o bad.h5
expect 2 "--mesh-max-source" "$trace" "${small[@]}" --mesh-max-source 0 -o bad.h5
expect 2 "--mesh-max-depth" "$trace" "${small[@]}" --mesh-max-depth 41 -o bad.h5
expect 2 "--bh-b" "$trace" "${small[@]}" --bh-b 95 -o bad.h5
expect 2 "--look-dlat" "$trace" "${small[@]}" --bh-b 80 --look-dlat 20 -o bad.h5
expect 2 "either --bh-l/--bh-b or --bh-ra/--bh-dec" "$trace" "${small[@]}" --bh-l 10 --bh-dec 5 -o bad.h5
expect 2 "give both" "$trace" "${small[@]}" --bh-ra 10 -o bad.h5
expect 2 "-o/--output: required" "$trace" "${small[@]}"
expect 2 "command line" "$trace" "${small[@]}" --no-such-flag -o bad.h5
expect 2 "does not exist" "$trace" "${small[@]}" -o missing/folder/bad.h5
mkdir folder.h5
expect 2 "output path is a folder" "$trace" "${small[@]}" -o folder.h5
mkdir readonly && chmod 555 readonly
if [ ! -w readonly ]; then
  expect 2 "not writable" "$trace" "${small[@]}" -o readonly/bad.h5
elif [ -d /proc/sys ] && [ ! -w /proc/sys ]; then  # running as root: a read-only folder
  expect 2 "not writable" "$trace" "${small[@]}" -o /proc/sys/bad.h5
else
  echo "note: no unwritable folder available to test"
fi
[ -e bad.h5 ] && fail "a refused run left bad.h5"

# A full disk while the map is written: a file size limit (SIGXFSZ ignored, so that writes past
# it fail with EFBIG as on a full disk) stops the write in the first dataset. Exit 1 with one
# line, and nothing left: no map, no temporary, no manifest. (Before HDF5's exit handler was
# turned off, the failed file's close crashed the process after the message.) HDF5 loses the
# failed chunk's 1.5 MB buffer on its error path, which the sanitizer build's leak check would
# report: it is off for this one run.
no_leak_check="detect_leaks=0"
[ -n "${ASAN_OPTIONS:-}" ] && no_leak_check="$ASAN_OPTIONS:detect_leaks=0"
expect 1 "cannot write dataset" env ASAN_OPTIONS="$no_leak_check" \
  sh -c 'trap "" XFSZ; ulimit -f 200; exec "$@"' sh "$trace" "${small[@]}" -o full.h5
ls full.h5* >/dev/null 2>&1 && fail "a failed write left $(ls full.h5*)"

# Bad input files for inspect.
expect 2 "no such file" "$trace" inspect missing.h5
echo "not a map" >text.h5
expect 2 "not an HDF5 file" "$trace" inspect text.h5
head -c 4000 map.h5 >cut.h5
expect 2 "cut.h5" "$trace" inspect cut.h5
expect 2 "--edges: needs --png" "$trace" inspect map.h5 --edges
expect 2 "map.png: output exists" "$trace" inspect map.h5 --png map.png
expect 2 "unknown argument '--pgn'" "$trace" inspect map.h5 --pgn x.png
expect 2 "--output: 'x.exr' names an OpenEXR file, but this output is HDF5" "$trace" "${small[@]}" -o x.exr
expect 2 "--threads: -1 is negative" "$trace" "${small[@]}" --threads -1 -o x.h5
ls x.* >/dev/null 2>&1 && fail "a refused command line left $(ls x.*)"
# Rasters: written whole, refused with the flag named.
expect 0 "" "$trace" inspect map.h5 --quantity mu,g --raster map-mu.fits
[ -s map-mu.fits ] || fail "no raster"
expect 2 "map-mu.fits: output exists" "$trace" inspect map.h5 --quantity mu --raster map-mu.fits
expect 2 "--quantity: needs --raster" "$trace" inspect map.h5 --quantity mu
expect 2 "--raster: needs --quantity" "$trace" inspect map.h5 --raster r.exr
expect 2 "--raster: 'r.png' must end in .exr or .fits" "$trace" inspect map.h5 --quantity mu --raster r.png
expect 2 "--quantity: 'speed' is not one of" "$trace" inspect map.h5 --quantity mu,speed --raster r.exr
expect 2 "--quantity: 'mu' is given twice" "$trace" inspect map.h5 --quantity mu,mu --raster r.exr
expect 2 "stmap is written as EXR" "$trace" inspect map.h5 --quantity stmap --raster r.fits
ls r.* >/dev/null 2>&1 && fail "a refused raster left $(ls r.*)"

# Interrupted runs (SIGINT, SIGTERM) leave no map, no temporary and no manifest. The signal is
# sent once tracing runs in parallel (a second thread exists), long after the output's handler
# is installed; a background job starts with SIGINT ignored until then.
for signal in INT TERM; do
  "$trace" --width 1920 --height 1080 --mesh-max-depth 14 --threads 2 --quiet -o big.h5 2>/dev/null &
  pid=$!
  for _ in $(seq 300); do
    [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -gt 1 ] && break
    sleep 0.1
  done
  kill -s "$signal" "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    fail "SIG$signal did not stop the run"
    kill -KILL "$pid"
  fi
  wait "$pid"
  status=$?
  [ "$status" -gt 128 ] || fail "SIG$signal: run exited $status, not by the signal"
  ls big.h5* >/dev/null 2>&1 && fail "SIG$signal left: $(ls big.h5*)"
done

# Moving cameras: the lens map records the observer and its velocity (as the static observer
# measures it: sqrt(1 / (r - 2)) on a circular orbit, sqrt(2 / r) in free fall from infinity, r 10);
# the orbit's frame is the static one aberrated, so its map differs.
expect 0 "" "$trace" "${small[@]}" --observer orbit --orbit-pa 30 -o orbit.h5
expect 0 "" "$trace" "${small[@]}" --observer infall -o infall.h5
expect 0 "" "$trace" "${small[@]}" --observer velocity --velocity 0.5,-0.2,0.1 -o velocity.h5
python3 - <<'PY' || fail "observer attributes in the manifests"
import json, math
for name, speed in (("orbit", math.sqrt(1 / 8)), ("infall", math.sqrt(2 / 10)),
                    ("velocity", math.sqrt(0.25 + 0.04 + 0.01))):
    p = json.load(open(name + ".h5.manifest.json"))["parameters"]
    assert p["observer"] == name, p
    v = p["observer_velocity_icrs"]
    assert abs(math.hypot(*v) - speed) < 1e-14, (name, v, speed)
p = json.load(open("map.h5.manifest.json"))["parameters"]
assert p["observer"] == "static" and "observer_velocity_icrs" not in p, p
PY
cmp -s orbit.h5 map.h5 && fail "an orbiting camera's map equals the static one"
expect 2 "--observer" "$trace" "${small[@]}" --observer spinning -o bad.h5
expect 2 "--observer" "$trace" "${small[@]}" --observer orbit --spacetime minkowski -o bad.h5
expect 2 "--observer" "$trace" "${small[@]}" --observer infall --spacetime minkowski -o bad.h5
expect 2 "--velocity" "$trace" "${small[@]}" --observer velocity --velocity 0.6,0.6,0.6 -o bad.h5
expect 2 "--velocity" "$trace" "${small[@]}" --observer velocity --velocity 1,0,0 -o bad.h5
expect 2 "--velocity" "$trace" "${small[@]}" --observer velocity --velocity nan,0,0 -o bad.h5
expect 2 "--velocity" "$trace" "${small[@]}" --observer velocity -o bad.h5
expect 2 "--velocity" "$trace" "${small[@]}" --velocity 0.1,0,0 -o bad.h5
expect 2 "--orbit-pa" "$trace" "${small[@]}" --orbit-pa 10 -o bad.h5
expect 2 "--orbit-pa" "$trace" "${small[@]}" --observer orbit --orbit-pa inf -o bad.h5
ls bad.h5* >/dev/null 2>&1 && fail "a refused observer left: $(ls bad.h5*)"

expect 0 "" "$trace" --help
expect 0 "" "$trace" --version
grep -q "starlens-trace" stdout || fail "--version does not name the tool"

[ "$failures" = 0 ] && echo "all trace command-line checks passed"
exit $((failures > 0))
