#!/usr/bin/env bash
# starlens-produce --images: the image catalogue's rows are the event stream's events (read by
# python/starlens), a star of known id lands where the lens map's triangles put it, astropy
# reads the FITS table with its units, the file is listed in the manifest with its hash, and a
# wrong name exits 2 naming the flag with nothing written.
# usage: produce_images_cli.sh PRODUCE TRACE CATALOG PYTHON_DIR
set -uo pipefail
produce=$1 trace=$2 catalog=$3 python_dir=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"
cd "$work"

hole="--bh-ra 100 --bh-dec 20 --fov 40 --width 256 --height 256"
"$trace" --spacetime schwarzschild --r-obs 100 $hole --mesh-max-depth 8 -o hole.h5 --quiet ||
  { echo "FAIL: trace schwarzschild"; exit 1; }
# A field of stars with catalogue ids; star 4242 sits 2.8 deg from the hole (two images).
/usr/bin/python3 - >stars.csv <<'PY'
import random
random.seed(5)
print("source_id,ra,dec,vmag,teff")
print("4242,102,22,2.0,5800")
for i in range(300):
    print(f"{1000 + i},{100 + random.uniform(-25, 25):.9f},{20 + random.uniform(-20, 20):.9f},"
          f"{random.uniform(1, 6):.3f},{random.uniform(3000, 20000):.1f}")
PY
expect 0 "" "$catalog" ingest stars.csv --band V --columns ra=ra,dec=dec,mag=vmag,teff=teff,id=source_id \
  -o stars.h5 --order 3 --quiet
for format in csv fits; do
  expect 0 "" "$produce" -l hole.h5 -c stars.h5 -o events-$format.sle --images images.$format \
    --chunk-events 50 --block-stars 40 --psf-min-y 1e-10 --quiet
done
cmp events-csv.sle events-fits.sle || fail "the stream depends on the image catalogue's format"
expect 0 "" "$produce" -l hole.h5 -c stars.h5 -o plain.sle --chunk-events 50 --block-stars 40 \
  --psf-min-y 1e-10 --quiet
cmp plain.sle events-csv.sle || fail "--images changed the event stream"

PYTHONPATH="$python_dir" /usr/bin/python3 - <<'PY' || fail "image catalogue rows, positions or units"
import json, math
import h5py, numpy as np
import starlens
from astropy.table import Table
import astropy.units as u

events = np.concatenate([c.events for c in starlens.read_events("events-csv.sle")])
csv = Table.read("images.csv", format="ascii.csv")
fits = Table.read("images.fits")
names = ["star_id", "image_order", "x", "y", "magnification", "parity", "g", "flux",
         "colour_r", "colour_g", "colour_b"]
assert csv.colnames == names and fits.colnames == names, (csv.colnames, fits.colnames)
assert len(csv) == len(events) == len(fits) > 50, (len(csv), len(events), len(fits))
# The rows are the stream's events, in its order, to the last bit.
for column, field in (("x", "x"), ("y", "y"), ("flux", "flux"), ("colour_r", "r"),
                      ("colour_g", "g"), ("colour_b", "b")):
    assert (np.asarray(csv[column]) == events[field]).all(), column
    assert (np.asarray(fits[column]) == events[field]).all(), column
for column in ("star_id", "image_order", "magnification", "parity", "g"):
    assert (np.asarray(csv[column]) == np.asarray(fits[column])).all(), column
assert fits["x"].unit == u.pix and fits["y"].unit == u.pix, (fits["x"].unit, fits["y"].unit)
assert set(np.unique(fits["parity"])) <= {-1, 1}
assert (np.sign(fits["magnification"]) == fits["parity"]).all()
assert (fits["g"] > 0).all()
ids = set(int(i) for i in fits["star_id"])
assert ids <= {4242} | set(range(1000, 1300)), ids

# Star 4242: a primary (order 0, parity +1) and a secondary image (order 1, parity -1), each
# where the lens map puts it: the map's kept triangle whose source triangle holds the star,
# interpolated linearly in its gnomonic barycentric weights; then its photon ring (orders 2 and
# more from the point lens), orders in a row, parities alternating, each side's images closing
# in on one point of the ring.
everything = fits[fits["star_id"] == 4242]
orders = sorted(int(o) for o in everything["image_order"])
assert orders[:2] == [0, 1] and orders == list(range(len(orders))) and len(orders) >= 4, orders
ring = {int(r["image_order"]): r for r in everything if r["image_order"] >= 2}
for n, r in ring.items():
    assert r["parity"] == (1 if n % 2 == 0 else -1), r
for n in ring:
    if n + 4 in ring:
        step = lambda a, b: math.hypot(ring[a]["x"] - ring[b]["x"], ring[a]["y"] - ring[b]["y"])
        assert step(n + 2, n + 4) < step(n, n + 2) / 100, (n, ring)
mine = everything[everything["image_order"] <= 1]
m = h5py.File("hole.h5", "r")
xy, d = m["/vertices/xy"][:], m["/vertices/dir"][:]
tri, parity = m["/triangles/v"][:], m["/triangles/parity"][:]
ra, dec = math.radians(102), math.radians(22)
p = np.array([math.cos(dec) * math.cos(ra), math.cos(dec) * math.sin(ra), math.sin(dec)])
s = d[tri]                                        # M x 3 x 3 source directions
e = np.stack([np.einsum("j,ij->i", p, np.cross(s[:, (k + 1) % 3], s[:, (k + 2) % 3]))
              for k in range(3)], axis=1)
total = e.sum(axis=1)
inside = np.isfinite(total) & (np.abs(total) > 0) & \
         ((e >= 0).all(axis=1) | (e <= 0).all(axis=1)) & (np.einsum("ijk,k->ij", s, p) > 0).all(axis=1)
found = np.nonzero(inside)[0]
assert len(found) >= 2, found
expected = []
for t in found:
    w = e[t] / total[t]
    expected.append((w @ xy[tri[t]], int(parity[t])))
for row in mine:
    best = min(expected, key=lambda x: math.hypot(x[0][0] - row["x"], x[0][1] - row["y"]))
    distance = math.hypot(best[0][0] - row["x"], best[0][1] - row["y"])
    assert distance < 0.005, (row, best, distance)  # measured 6e-5 px
    assert best[1] == row["parity"], (row, best)
    assert (row["image_order"] == 0) == (row["parity"] == 1), row

record = json.load(open("events-fits.sle.manifest.json"))
outputs = {o["path"]: o for o in record["outputs"]}
assert outputs["images.fits"]["role"] == "images", outputs
assert record["counts"]["image_rows"] == len(fits) == record["counts"]["events"], record["counts"]
import hashlib
assert outputs["images.fits"]["size"] == len(open("images.fits", "rb").read())
PY

# A Kerr map seen by its static observer (who moves against the ZAMO the map's rays are traced
# for): each image of star 4242 lies in a triangle of the map whose source triangle holds the
# star, within the mesh's tolerance of its interpolated position, with a magnification near the
# triangle's mean (the point value differs from that average by at most a few per cent away from
# critical curves) and the vertices' g.
"$trace" --spacetime kerr --spin 0.9 --inclination 60 --r-obs 100 --observer static $hole \
  --mesh-max-depth 8 -o kerr.h5 --quiet || { echo "FAIL: trace kerr"; exit 1; }
expect 0 "" "$produce" -l kerr.h5 -c stars.h5 -o kerr.sle --images kerr.csv --psf-min-y 1e-10 --quiet
/usr/bin/python3 - <<'PY' || fail "a Kerr map's images: positions, magnifications or g"
import json, math
import h5py, numpy as np
from astropy.table import Table

rows = Table.read("kerr.csv", format="ascii.csv")
rows = rows[rows["star_id"] == 4242]
m = h5py.File("kerr.h5", "r")
xy, d, g = m["/vertices/xy"][:], m["/vertices/dir"][:], m["/vertices/g"][:]
tri, mu, parity = m["/triangles/v"][:], m["/triangles/mu"][:], m["/triangles/parity"][:]
ra, dec = math.radians(102), math.radians(22)
p = np.array([math.cos(dec) * math.cos(ra), math.cos(dec) * math.sin(ra), math.sin(dec)])
s = d[tri]
e = np.stack([np.einsum("j,ij->i", p, np.cross(s[:, (k + 1) % 3], s[:, (k + 2) % 3]))
              for k in range(3)], axis=1)
total = e.sum(axis=1)
inside = np.isfinite(total) & (np.abs(total) > 0) & \
         ((e >= 0).all(axis=1) | (e <= 0).all(axis=1)) & (np.einsum("ijk,k->ij", s, p) > 0).all(axis=1)
expected = []
for t in np.nonzero(inside)[0]:
    w = e[t] / total[t]
    expected.append((w @ xy[tri[t]], mu[t], int(parity[t]), w @ g[tri[t]]))
assert len(expected) >= 2 and len(rows) == len(expected), (len(rows), len(expected))
for row in rows:
    best = min(expected, key=lambda x: math.hypot(x[0][0] - row["x"], x[0][1] - row["y"]))
    distance = math.hypot(best[0][0] - row["x"], best[0][1] - row["y"])
    assert distance < 0.02, (row, best, distance)
    assert best[2] == row["parity"], (row, best)
    ratio = abs(row["magnification"]) / best[1]
    assert 0.97 < ratio < 1.03, (row, best, ratio)
    assert abs(row["g"] / best[3] - 1) < 1e-4, (row, best)
record = json.load(open("kerr.sle.manifest.json"))
counts, lens = record["counts"], record["lens"]
assert counts["images_triangle_mu"] == 0 and counts["images_point_mu_above_bound"] == 0, counts
assert (lens["spacetime"], lens["spin"], lens["inclination_deg"], lens["observer"],
        lens["magnification"]) == ("kerr", 0.9, 60, "static", "traced rays"), lens
assert 0 < math.hypot(*lens["observer_velocity"]) < 1, lens
PY

# The same rows on any thread count; --max-events N gives exactly the stream's N rows.
for threads in 1 3; do
  expect 0 "" "$produce" -l hole.h5 -c stars.h5 -o t$threads.sle --threads $threads \
    --images t$threads.csv --chunk-events 50 --block-stars 40 --psf-min-y 1e-10 --quiet
done
cmp t1.csv t3.csv && cmp t1.csv images.csv || fail "the image catalogue depends on the thread count"
expect 0 "" "$produce" -l hole.h5 -c stars.h5 -o cut.sle --images cut.csv --max-events 37 \
  --chunk-events 50 --block-stars 40 --psf-min-y 1e-10 --quiet
[ "$(head -n 38 images.csv)" = "$(cat cut.csv)" ] ||
  fail "--max-events 37: the image catalogue is not the first 37 rows"

# With the stream on standard output, or only counted, the same rows.
"$produce" -l hole.h5 -c stars.h5 -o - --images pipe.csv --chunk-events 50 --block-stars 40 \
  --psf-min-y 1e-10 --quiet >pipe.sle || fail "-o - --images"
cmp pipe.sle plain.sle && cmp pipe.csv images.csv || fail "-o -: another stream or image catalogue"
expect 0 "" "$produce" -l hole.h5 -c stars.h5 --sink count -o count.json --images count.csv \
  --chunk-events 50 --block-stars 40 --psf-min-y 1e-10 --quiet
cmp count.csv images.csv || fail "--sink count: another image catalogue"

# A replay writes both outputs under replay names and finds both hashes equal.
expect 0 "" "$produce" --from-manifest events-fits.sle.manifest.json --quiet
cmp images.fits images.replay.fits || fail "the replayed image catalogue differs"

# A full disk while the image catalogue is written (a file size limit 8 KiB above the stream's
# size, SIGXFSZ ignored, so that writes past it fail as on a full disk; the image catalogue is
# larger): exit 1 with one line naming the file, nothing left.
expect 0 "" "$produce" -l hole.h5 -c stars.h5 -o probe.sle --psf-min-y 1e-10 --quiet
blocks=$(( ($(stat -c %s probe.sle) + 8192) / 512 ))
rm -f probe.sle probe.sle.manifest.json
for name in full.csv full.fits; do
  sh -c 'trap "" XFSZ; ulimit -f "$0"; exec "$@"' "$blocks" "$produce" -l hole.h5 -c stars.h5 -o full.sle \
    --images $name --psf-min-y 1e-10 --quiet >out.txt 2>err.txt
  status=$?
  [ "$status" = 1 ] || fail "$name on a full disk: exit $status, expected 1: $(cat err.txt)"
  grep -q "$name: cannot" err.txt && [ "$(wc -l <err.txt)" = 1 ] ||
    fail "$name on a full disk: $(cat err.txt)"
  [ -z "$(ls -a | grep '^full')" ] || fail "a failed write left $(ls -a | grep '^full')"
done

# Wrong names exit 2 naming the flag, and nothing is written.
expect 2 "--images: images.txt: the image catalogue is CSV or FITS: name it .csv or .fits" \
  "$produce" -l hole.h5 -c stars.h5 -o bad.sle --images images.txt --quiet
expect 2 "--images: -: standard output is not supported for the image catalogue" \
  "$produce" -l hole.h5 -c stars.h5 -o bad.sle --images - --quiet
expect 2 "--images: bad.sle: the image catalogue is CSV or FITS" \
  "$produce" -l hole.h5 -c stars.h5 -o bad.sle --images bad.sle --quiet
expect 2 "images.csv" "$produce" -l hole.h5 -c stars.h5 -o bad.sle --images images.csv --quiet
expect 2 "nodir/images.csv" \
  "$produce" -l hole.h5 -c stars.h5 -o bad.sle --images nodir/images.csv --quiet
[ ! -e bad.sle ] && [ ! -e images.txt ] || fail "a bad --images run left output behind"

if [ "$failures" -ne 0 ]; then
  echo "$failures produce --images check(s) failed"
  exit 1
fi
echo "all produce --images checks passed"
