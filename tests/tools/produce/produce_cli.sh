#!/usr/bin/env bash
# Command-line behaviour of starlens-produce: end-to-end positions and fluxes against
# independent references (Minkowski, Schwarzschild images, the Einstein ring), the same bytes
# on any thread count (and a replay on another),
# classes, bounds, the count sink, streaming to splat, the scatter control, and every
# bad-input path (exit 2, one line, nothing left behind).
# usage: produce_cli.sh PRODUCE TRACE FIXTURES CHECK SLE_CHECK.py SPLAT
set -uo pipefail
produce=$1 trace=$2 fixtures=$3 check=$4 sle="python3 $5" splat=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"
json() { python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

cd "$work"
camera="--bh-ra 100 --bh-dec 20 --fov 40 --width 320 --height 200"

# --- Minkowski end to end: every star in the field at its pinhole projection, flux = its
# unlensed Y, total Y = the sum over the stars in the field.
"$trace" --spacetime minkowski $camera -o flat.h5 --quiet || { echo "FAIL: trace minkowski"; exit 1; }
python3 - >field.csv <<'PY'
import random
random.seed(3)
for i in range(600):  # around the field (40 x 25 deg) and beyond it
    print(f"{100 + random.uniform(-35, 35):.9f},{20 + random.uniform(-25, 25):.9f},"
          f"{random.uniform(2500, 30000):.1f},{10 ** random.uniform(-1.5, 1.5):.6g}")
PY
"$fixtures" stars field.csv -o field.h5 --order 4 || fail "fixture store"
for colour in table exact; do
  expect 0 "" "$produce" -l flat.h5 -c field.h5 -o flat-$colour.sle --colour $colour --quiet --psf-min-y 1e-12
  "$check" minkowski flat-$colour.sle field.csv $camera || fail "Minkowski end to end ($colour colour)"
done

# --- Schwarzschild: a star behind the hole has a primary and a secondary image on opposite
# sides, where the exact map puts them, with the exact map's magnification.
hole="--bh-ra 100 --bh-dec 20 --fov 40 --width 256 --height 256"
"$trace" --spacetime schwarzschild --r-obs 100 $hole --mesh-max-depth 8 -o hole.h5 --quiet ||
  { echo "FAIL: trace schwarzschild"; exit 1; }
echo "102,22,5800,100" >behind.csv
"$fixtures" stars behind.csv -o behind.h5 --order 4 || fail "fixture store"
expect 0 "" "$produce" -l hole.h5 -c behind.h5 -o images.sle --quiet --psf-min-y 1e-12
"$check" images images.sle --lensmap hole.h5 --r-obs 100 $hole --star-ra 102 --star-dec 22 \
  --teff 5800 --flux 100 --position-tolerance 0.01 || fail "Schwarzschild images"

# --- A star exactly behind the hole lights the Einstein ring (a grid map that keeps the
# triangles straddling the ring, which trace drops as critical-curve triangles).
"$fixtures" lensmap -o ring.h5 --r-obs 100 $hole --step 2 || fail "fixture ring map"
echo "100,20,5800,100" >axis.csv
"$fixtures" stars axis.csv -o axis.h5 --order 4 || fail "fixture store"
expect 0 "" "$produce" -l ring.h5 -c axis.h5 -o ring.sle --quiet
"$check" ring ring.sle --r-obs 100 $hole --mesh-step 2 || fail "Einstein ring"

# --- Determinism, classes and counts on many stars through the Schwarzschild map.
"$fixtures" uniform --count 300000 --order 5 --seed 4 -o sky.h5 || fail "fixture uniform store"
psf="--psf-min-y 1e-9 --psf-cache-radius 6 --psf-max-radius 12"
# The stream is a function of the inputs and parameters: 1, 2 and 3 threads (many read units
# of --block-stars 2000) give the same bytes, the same counts and the same output hash, and a
# replay on another thread count (OMP_NUM_THREADS: the manifest has no --threads) matches.
mkdir one two three four
blocks="--chunk-events 500 --block-stars 2000"
(cd one && "$produce" -l ../hole.h5 -c ../sky.h5 -o e.sle --threads 1 $blocks $psf --quiet) || fail "1 thread"
(cd two && "$produce" -l ../hole.h5 -c ../sky.h5 -o e.sle --threads 1 $blocks $psf --quiet) || fail "1 thread again"
(cd three && "$produce" -l ../hole.h5 -c ../sky.h5 -o e.sle --threads 2 $blocks $psf --quiet) || fail "2 threads"
(cd four && OMP_NUM_THREADS=3 "$produce" -l ../hole.h5 -c ../sky.h5 -o e.sle $blocks $psf --quiet) || fail "3 threads"
cmp -s one/e.sle two/e.sle || fail "1 thread: bytes differ run to run"
cmp -s one/e.sle three/e.sle || fail "2 threads: bytes differ from 1 thread"
cmp -s one/e.sle four/e.sle || fail "3 threads: bytes differ from 1 thread"
python3 - one/e.sle.manifest.json three/e.sle.manifest.json four/e.sle.manifest.json <<'PY' ||
import json, sys
one, *others = (json.load(open(p)) for p in sys.argv[1:])
assert one["counts"]["chunks"] > 20, "too few chunks to tell"
for m in others:
    assert m["outputs"][0]["sha256_tree"] == one["outputs"][0]["sha256_tree"], "output hash"
    assert m["counts"] == one["counts"], (m["counts"], one["counts"])
    assert m["chunk_statistics"] == one["chunk_statistics"]
PY
  fail "manifests differ across thread counts"
(cd four && OMP_NUM_THREADS=1 "$produce" --from-manifest e.sle.manifest.json --quiet >replay.json 2>replay.err) ||
  fail "replay of the 3-thread run on 1 thread: $(cat four/replay.err)"
grep -q "outputs and counts match" four/replay.err || fail "replay: $(cat four/replay.err)"
cmp -s four/e.sle four/e.replay.sle || fail "replay: bytes differ"
# A version 1 manifest (plain SHA-256 of whole files, as archived runs have) replays too: the
# same run's manifest rewritten that way, its hashes computed with hashlib.
python3 - four/e.sle.manifest.json four/v1.manifest.json <<'PY' || fail "writing a version 1 manifest"
import hashlib, json, os, sys
m = json.load(open(sys.argv[1]))
m["format_version"] = 1
for entry in m["inputs"] + m["outputs"] + [m["executable"]]:
    del entry["hash"], entry["sha256_tree"]
    path = os.path.join(m["cwd"], entry["path"])
    entry["sha256"] = hashlib.sha256(open(path, "rb").read()).hexdigest()
json.dump(m, open(sys.argv[2], "w"), indent=2)
PY
rm -f four/e.replay.sle four/e.replay.sle.manifest.json
(cd four && "$produce" --from-manifest v1.manifest.json --quiet >replay1.json 2>replay1.err) ||
  fail "replay of a version 1 manifest: $(cat four/replay1.err)"
grep -q "outputs and counts match" four/replay1.err || fail "v1 replay: $(cat four/replay1.err)"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["same_executable"] and r["match"], r' \
  four/replay1.json || fail "v1 replay report: $(cat four/replay1.json)"
# A replay whose input changed since the manifest names that input and writes nothing.
mkdir five && cp hole.h5 sky.h5 five/
(cd five && "$produce" -l hole.h5 -c sky.h5 -o e.sle $blocks $psf --quiet) || fail "run for the changed-input replay"
printf 'x' >>five/sky.h5
# (in the shell itself, not a subshell, so that a failure is counted)
cd five
expect 2 "sky.h5: sha256_tree: input changed since" "$produce" --from-manifest e.sle.manifest.json --quiet
cd "$work"
[ -e five/e.replay.sle ] && fail "a replay with a changed input left its output"
printf 'x' >>five/hole.h5
cd five
expect 2 "hole.h5: sha256_tree: input changed" "$produce" --from-manifest e.sle.manifest.json --quiet
cd "$work"
classes=$($sle classes one/e.sle) || fail "an event disobeys its class"
echo "classes: $classes"
python3 - one/e.sle.manifest.json "$classes" <<'PY' || fail "manifest counts"
import json, sys
m = json.load(open(sys.argv[1]))
c = m["counts"]
assert c["events"] == c["events_cache"] + c["events_wing_clip"] + c["events_direct"], c
assert c["images"] == c["events"] + c["events_discarded_min_y"], c
assert c["events_cache"] > 0 and c["events_wing_clip"] > 0 and c["events_direct"] > 0, c
assert c["events_discarded_min_y"] > 0 and c["direct_bounded_by_max_radius"] > 0, c
seen = dict(zip(*[iter(sys.argv[2].split())] * 2))
assert int(seen["cache"]) == c["events_cache"] and int(seen["direct"]) == c["events_direct"], (seen, c)
assert int(seen["wing_clip"]) == c["events_wing_clip"], (seen, c)
assert c["stars_read"] == c["catalog_stars_read"] and c["stars_imaged"] > 0, c
assert m["coverage"]["complete"] and m["coverage"]["cells_completed"] == m["coverage"]["cells_selected"]
assert [i["role"] for i in m["inputs"]] == ["lensmap", "catalog"] and all(len(i["sha256_tree"]) == 64 for i in m["inputs"])
assert m["outputs"][0]["role"] == "events" and len(m["outputs"][0]["sha256_tree"]) == 64
assert 0 < m["colour"]["table_max_relative_error"] < 1e-6, m["colour"]
for phase in ("query", "read", "mapping", "colour", "write", "total"):
    assert phase in m["timings_s"], phase
s = m["chunk_statistics"]
# Most of this map's events are secondaries from the point lens (no triangle): a chunk of
# them alone counts no triangle, so the median chunk may have none.
t = s["triangles_per_chunk"]
assert s["chunks"] == c["chunks"] and 0 <= t["p50"] <= t["p90"] <= t["max"] <= 500 and t["max"] > 0, s
assert c["images_by_order"][0] > 0 and c["images_by_order"][1] == c["photon_ring"]["images"] - sum(c["images_by_order"][2:]), c
assert c["photon_ring"]["first_order"] == 1 and c["photon_ring"]["mesh_triangles_set_aside"] > 0, c
assert 0 < s["tiles_per_chunk"]["p50"] <= s["tiles_per_chunk"]["p90"] <= s["tiles_per_chunk"]["max"]
PY

# --- The count sink runs the same producer and writes no stream.
expect 0 "" "$produce" -l hole.h5 -c sky.h5 --sink count --threads 2 $blocks $psf --quiet
python3 - stdout one/e.sle.manifest.json <<'PY' || fail "count sink report"
import json, sys
report, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for key in ("events", "events_cache", "events_direct", "chunks", "images", "stream_bytes"):
    assert report["counts"][key] == m["counts"][key], key
assert report["chunk_statistics"] == m["chunk_statistics"]
assert report["throughput"]["events_per_second"] > 0
PY
expect 0 "" "$produce" -l hole.h5 -c sky.h5 --sink count -o count.json $psf --quiet
[ -s count.json ] && [ -s count.json.manifest.json ] || fail "count report and manifest"

# --- Bounds. --cells reads only the selected cells; --max-events stops there.
expect 0 "" "$produce" -l flat.h5 -c sky.h5 -o all.sle $psf --quiet
cells=$(json all.sle.manifest.json '" ".join(str(c) for c in [m["coverage"]["first_cell"], m["coverage"]["last_cell"]])')
first=${cells% *}
end=$((first + 40))
expect 0 "" "$produce" -l flat.h5 -c sky.h5 -o some.sle --cells "$first:$end" $psf --quiet
read -r row0 row1 _ <<<"$("$fixtures" cells sky.h5 "$first" "$end")"
python3 - some.sle.manifest.json all.sle.manifest.json "$row0" "$row1" "$first" "$end" <<'PY' ||
import json, sys
some, every = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
row0, row1, first, end = map(int, sys.argv[3:7])
c = some["counts"]
assert 0 < c["catalog_stars_read"] <= row1 - row0, (c["catalog_stars_read"], row1 - row0)
# Rows requested: 24 bytes a star of cells A:B, and their offsets (read to plan, then with
# the stars). Bytes read (whole chunks, per read) stay far below the unbounded run's.
assert c["catalog_bytes_requested"] <= 24 * (row1 - row0) + 2 * 8 * 2 * (end - first + 1), c
assert c["catalog_bytes_read"] * 4 < every["counts"]["catalog_bytes_read"], c
assert 0 < c["events"] < every["counts"]["events"]
assert some["bounds"]["cells"] == [first, end], some["bounds"]
print("cells read", c["catalog_cells_read"], "stars", c["catalog_stars_read"], "bytes", c["catalog_bytes_read"],
      "of", every["counts"]["catalog_bytes_read"])
PY
  fail "--cells reads"
expect 0 "" "$produce" -l flat.h5 -c sky.h5 -o capped.sle --max-events 777 --threads 2 --block-stars 500 $psf --quiet
[ "$($sle count capped.sle)" = 777 ] || fail "--max-events: not 777 events"
expect 0 "" "$produce" -l flat.h5 -c sky.h5 -o capped1.sle --max-events 777 --threads 1 --block-stars 500 $psf --quiet
cmp -s capped.sle capped1.sle || fail "--max-events: 1 and 2 threads differ"
cmp -s <(json capped.sle.manifest.json 'm["counts"]') <(json capped1.sle.manifest.json 'm["counts"]') ||
  fail "--max-events: counts differ between 1 and 2 threads"
json capped.sle.manifest.json 'm["coverage"]["stopped_by_max_events"] and not m["coverage"]["complete"] and m["counts"]["events"] == 777' |
  grep -q True || fail "--max-events coverage"
expect 0 "" "$produce" -l flat.h5 -c sky.h5 -o region.sle --sky-region 95,18,6 $psf --quiet
$sle region region.sle 95 18 6 100 20 40 || fail "--sky-region"
expect 0 "" "$produce" -l flat.h5 -c sky.h5 -o tri.sle --triangles 1000:3000 --chunk-events 50 $psf --quiet
$sle triangles tri.sle 1000 3000 || fail "--triangles"
json tri.sle.manifest.json 'm["counts"]["triangles_in_bounds"] == 2000 and m["bounds"]["triangles"] == [1000, 3000]' |
  grep -q True || fail "--triangles manifest"

# --- Streaming: produce -o - | splat -i - renders a frame with no event file on disk.
"$produce" -l hole.h5 -c sky.h5 -o - $psf --quiet | "$splat" -i - -o piped.exr --quiet || fail "produce | splat"
"$splat" -i one/e.sle -o file.exr --quiet || fail "splat of the file"
cmp -s <(json piped.exr.manifest.json 'm["counts"]["events"]') <(json file.exr.manifest.json 'm["counts"]["events"]') ||
  fail "piped and file frames count different events"

# --- The scatter control.
expect 0 "" "$produce" scatter one/e.sle -o control.sle --seed 9 --quiet
$sle scatter one/e.sle control.sle || fail "scatter control"
json control.sle.manifest.json 'm["control"]["kind"] == "scatter" and m["parameters"]["command"] == "scatter"' |
  grep -q True || fail "scatter manifest"
"$produce" scatter one/e.sle -o control2.sle --seed 9 --quiet && cmp -s control.sle control2.sle ||
  fail "scatter not deterministic"

# --- Bad input: exit 2, one line naming the file or flag, nothing left behind.
no_output() { [ ! -e "$1" ] && [ ! -e "$1.manifest.json" ] || fail "output left behind: $1"; }
expect 2 "unknown argument '--lensmpa'" "$produce" --lensmpa flat.h5 -c sky.h5 -o x.sle --quiet
expect 2 "--output: 'x.exr' names an OpenEXR file, but this output is an event stream" \
  "$produce" -l flat.h5 -c sky.h5 -o x.exr --quiet; no_output x.exr
"$produce" --help | grep -q -- "--psf-fwhm FLOAT=2 " || fail "--help lacks the PSF defaults"
expect 2 "missing.h5" "$produce" -l missing.h5 -c sky.h5 -o x.sle --quiet; no_output x.sle
expect 2 "missing.h5" "$produce" -l flat.h5 -c missing.h5 -o x.sle --quiet; no_output x.sle
expect 2 "sky.h5" "$produce" -l sky.h5 -c sky.h5 -o x.sle --quiet; no_output x.sle
expect 2 "flat.h5" "$produce" -l flat.h5 -c flat.h5 -o x.sle --quiet; no_output x.sle
head -c 3000 sky.h5 >truncated.h5
expect 2 "truncated.h5" "$produce" -l flat.h5 -c truncated.h5 -o x.sle --quiet; no_output x.sle
head -c 3000 flat.h5 >truncated_map.h5
expect 2 "truncated_map.h5" "$produce" -l truncated_map.h5 -c sky.h5 -o x.sle --quiet; no_output x.sle
echo "not hdf5" >text.h5
expect 2 "text.h5" "$produce" -l text.h5 -c sky.h5 -o x.sle --quiet; no_output x.sle
"$fixtures" damage flat.h5 -o no_mu.h5 --delete /triangles/mu
expect 2 "/triangles/mu" "$produce" -l no_mu.h5 -c sky.h5 -o x.sle --quiet; no_output x.sle
"$fixtures" damage sky.h5 -o no_table.h5 --delete /stars/table
expect 2 "/stars/table" "$produce" -l flat.h5 -c no_table.h5 -o x.sle --quiet; no_output x.sle
"$fixtures" damage flat.h5 -o future_map.h5 --set-int version=99
expect 2 "version" "$produce" -l future_map.h5 -c sky.h5 -o x.sle --quiet; no_output x.sle
"$fixtures" damage sky.h5 -o future_store.h5 --set-int version=99
expect 2 "version" "$produce" -l flat.h5 -c future_store.h5 -o x.sle --quiet; no_output x.sle
"$fixtures" damage sky.h5 -o galactic.h5 --set-string frame=galactic
expect 2 "ICRS" "$produce" -l flat.h5 -c galactic.h5 -o x.sle --quiet; no_output x.sle
echo "100,20,-5,1" >cold.csv
"$fixtures" stars cold.csv -o cold.h5 --order 4
expect 2 "teff" "$produce" -l flat.h5 -c cold.h5 -o x.sle --quiet; no_output x.sle
expect 2 "--cells" "$produce" -l flat.h5 -c sky.h5 -o x.sle --cells 9:3 --quiet; no_output x.sle
expect 2 "--cells" "$produce" -l flat.h5 -c sky.h5 -o x.sle --cells 0:99999999 --quiet; no_output x.sle
expect 2 "--sky-region" "$produce" -l flat.h5 -c sky.h5 -o x.sle --sky-region 10,95,1 --quiet; no_output x.sle
expect 2 "--triangles" "$produce" -l flat.h5 -c sky.h5 -o x.sle --triangles 0:999999999 --quiet; no_output x.sle
expect 2 "beta" "$produce" -l flat.h5 -c sky.h5 -o x.sle --psf-beta 0.5 --quiet; no_output x.sle
expect 2 "--manifest" "$produce" -l flat.h5 -c sky.h5 -o x.sle --manifest x.json --quiet; no_output x.sle
expect 2 "exists" "$produce" -l flat.h5 -c sky.h5 -o all.sle --quiet
expect 2 "does not exist" "$produce" -l flat.h5 -c sky.h5 -o nowhere/x.sle --quiet
expect 2 "output" "$produce" -l flat.h5 -c sky.h5 --quiet
expect 2 "sink" "$produce" -l flat.h5 -c sky.h5 -o x.sle --sink magic --quiet; no_output x.sle
size=$(stat -c %s one/e.sle)
head -c $((size - 40)) one/e.sle >cut.sle
expect 2 "cut.sle" "$produce" scatter cut.sle -o y.sle --quiet; no_output y.sle
expect 2 "missing.sle" "$produce" scatter missing.sle -o y.sle --quiet; no_output y.sle

[ "$failures" = 0 ] && echo "all produce command-line checks passed"
exit $((failures > 0))
