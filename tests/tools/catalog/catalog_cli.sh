#!/bin/bash
# Command-line tests of starlens-catalog: exit statuses, one-line messages naming the file,
# no partial outputs, manifests, determinism of synth, and the ingest paths end to end.
# Usage: catalog_cli.sh <starlens-catalog> <shared folder>
set -u
tool=$(realpath "$1")
shared=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# run STATUS ARGS...: runs the tool, keeps stdout/stderr, checks the exit status.
run() {
  local expected=$1; shift
  "$tool" "$@" >out.txt 2>err.txt
  local status=$?
  [ "$status" -eq "$expected" ] || fail "exit $status, expected $expected: $* :: $(head -c 300 err.txt)"
}
stderr_has() { grep -q -- "$1" err.txt || fail "stderr lacks '$1': $(head -c 300 err.txt)"; }
one_line_stderr() { [ "$(wc -l <err.txt)" -eq 1 ] || fail "stderr is not one line: $(cat err.txt)"; }
no_leftovers() {
  local left
  left=$(find . -name '*.tmp.*' -o -name '*sortrun*' | head -5)
  [ -z "$left" ] || fail "temporary files left: $left"
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# --- help, version, usage errors
run 0 --help
run 0 --version
grep -q "starlens-catalog" out.txt || fail "--version does not name the tool"
run 2
run 2 frobnicate
run 0 ingest --help
run 2 ingest
one_line_stderr
run 2 ingest stars.csv -o x.h5 --bogus
stderr_has "unknown argument '--bogus'"
run 2 ingest stars.csv -o x.png
stderr_has "--output: 'x.png' names a PNG file, but this output is HDF5: name it .h5 or .hdf5"
run 2 synth --count 10 -o x.h5 --threads -3
stderr_has "--threads: -3 is negative"
[ -e x.h5 ] || [ -e x.png ] && fail "a refused command line left an output"

# --- CSV
printf 'ra,dec,mag,teff\n10.0,20.0,5.3,5800\n# a comment\n\n350.5,-45.25,7.5,3500\n' >stars.csv
run 0 ingest stars.csv --band V -o csv.h5 --quiet
[ -f csv.h5 ] && [ -f csv.h5.manifest.json ] || fail "CSV store or manifest missing"
[ "$(json csv.h5.manifest.json 'd["counts"]["stars_written"]')" = 2 ] || fail "CSV star count"
run 0 info csv.h5 --json --quiet
[ "$(python3 -c 'import json; print(json.load(open("out.txt"))["count"])')" = 2 ] || fail "info --json count"
[ "$(json out.txt '[(b["from"], b["count"]) for b in d["magnitude_histogram"]]')" = "[(5, 1), (7, 1)]" ] ||
  fail "info magnitude histogram: $(cat out.txt)"
[ "$(json out.txt '[(int(b["from_k"]), b["count"]) for b in d["temperature_histogram"] if b["count"]]')" = \
  "[(3500, 1), (5000, 1)]" ] || fail "info temperature histogram"
run 0 info csv.h5 --quiet
grep -q "2 stars, HEALPix order 0" out.txt || fail "info text: $(head -1 out.txt)"
run 2 ingest stars.csv --band V -o csv.h5 --quiet
stderr_has "csv.h5"; stderr_has "exists"; one_line_stderr
run 0 ingest stars.csv --band V -o csv.h5 --force --quiet
run 2 ingest stars.csv -o nob.h5 --quiet
stderr_has "--band"; [ ! -e nob.h5 ] || fail "output written without --band"
run 2 ingest stars.csv --band R -o r.h5 --quiet
stderr_has "unknown band"
printf 'ra,dec,mag,bv\n10.0,20.0,5.0,0.65\n11.0,abc,5.0,0.65\n' >bad_number.csv
run 2 ingest bad_number.csv --band V -o bad.h5 --quiet
stderr_has "bad_number.csv"; stderr_has "line 3"; stderr_has "dec"; one_line_stderr
[ ! -e bad.h5 ] || fail "a failed ingest left its output"
printf 'ra,dec,mag,teff\n10.0,20.0,5.0\n' >short_row.csv
run 2 ingest short_row.csv --band V -o bad.h5 --quiet
stderr_has "line 2"; stderr_has "3 fields"
printf 'ra,dec,mag,teff\n370.0,20.0,5.0,5000\n' >bad_ra.csv
run 2 ingest bad_ra.csv --band V -o bad.h5 --quiet
stderr_has "line 2: ra"
printf 'ra,dec,mag,teff\n10.0,20.0,5.0,99\n' >bad_teff.csv
run 2 ingest bad_teff.csv --band V -o bad.h5 --quiet
stderr_has "teff"
printf 'x,y,z\n1,2,3\n' >bad_header.csv
run 2 ingest bad_header.csv --band V -o bad.h5 --quiet
stderr_has "line 1: header"
# Control bytes quoted from the input are escaped: still one line for any reader of lines (a
# vertical tab or U+2028 ends a line for Python's str.splitlines, as for some terminals).
printf 'ra,dec,mag,bv\v1,2\xe2\x80\xa8\n1,2,3,4\n' >control_header.csv
run 2 ingest control_header.csv --band V -o bad.h5 --quiet
stderr_has 'bv\\x0b1,2\\xe2\\x80\\xa8'
python3 -c "import sys; t = open('err.txt', 'rb').read().decode('utf-8', 'replace'); sys.exit(len(t.splitlines()) != 1)" ||
  fail "stderr is not one line for str.splitlines: $(od -c err.txt | head -5)"
no_leftovers
# An empty catalogue: a valid empty store.
printf 'ra,dec,mag,teff\n' >empty.csv
run 0 ingest empty.csv --band V -o empty.h5 --quiet
run 0 info empty.h5 --json --quiet
[ "$(python3 -c 'import json; print(json.load(open("out.txt"))["count"])')" = 0 ] || fail "empty store count"
: >nothing.csv
run 0 ingest nothing.csv --band Ks -o nothing.h5 --quiet

# --- options
run 2 ingest stars.csv --band V -o o.h5 --order 13 --quiet
stderr_has "--order"
run 2 ingest stars.csv --band V -o o.h5 --memory-limit 10 --quiet
stderr_has "--memory-limit"
run 2 ingest stars.csv --band V -o o.h5 --memory-limit lots --quiet
stderr_has "--memory-limit"
run 2 ingest stars.txt --band V -o o.h5 --quiet
stderr_has "stars.txt"
cp stars.csv stars.txt
run 2 ingest stars.txt --band V -o o.h5 --quiet
stderr_has "--format"
run 0 ingest stars.txt --format csv --band V -o o.h5 --quiet
run 2 ingest stars.csv --band V -o missing_folder/o.h5 --quiet
stderr_has "does not exist"

# --- 2MASS
fixture="$shared/fixtures/2mass_psc_synthetic_5rows.txt"
gzip -c "$fixture" >psc_aaa.gz
{ head -1 "$fixture"; head -1 "$fixture" | cut -d'|' -f1-59; head -1 "$fixture" | sed 's/^150.000125/15O.000125/'; } | gzip -c >psc_aab.gz
run 0 ingest psc_aaa.gz psc_aab.gz -o psc.h5 --quiet
[ "$(json psc.h5.manifest.json 'd["counts"]["rows_read"]')" = 8 ] || fail "2MASS rows read"
[ "$(json psc.h5.manifest.json 'd["counts"]["stars_written"]')" = 5 ] || fail "2MASS stars written"
[ "$(json psc.h5.manifest.json 'd["rejections"]["by_reason"]["field_count"]')" = 1 ] || fail "field_count"
[ "$(json psc.h5.manifest.json 'd["rejections"]["by_reason"]["bad_ra"]')" = 1 ] || fail "bad_ra"
[ "$(json psc.h5.manifest.json 'd["rejections"]["by_reason"]["reference_band_unusable"]')" = 1 ] || fail "band J"
[ "$(json psc.h5.manifest.json '[(e["file"], e["line"]) for e in d["rejections"]["examples"] if e["reason"]=="field_count"][0]')" = "('psc_aab.gz', 2)" ] || fail "field_count example file:line"
[ "$(json psc.h5.manifest.json 'len(d["inputs"])')" = 2 ] || fail "inputs hashed"
# The tree hash of docs/formats/manifest.md, computed with hashlib.
tree_sha256() {
  python3 -c 'import hashlib, sys; d = open(sys.argv[1], "rb").read(); B = 4 << 20
print(hashlib.sha256(b"".join(hashlib.sha256(d[i:i + B]).digest() for i in range(0, len(d), B))).hexdigest())' "$1"
}
[ "$(json psc.h5.manifest.json 'd["inputs"][0]["sha256_tree"]')" = "$(tree_sha256 psc_aaa.gz)" ] || fail "input tree hash"
run 0 ingest psc_aaa.gz -o ks.h5 --band Ks --quiet
[ "$(json ks.h5.manifest.json 'd["counts"]["stars_written"]')" = 3 ] || fail "2MASS band Ks"
head -c 300 psc_aaa.gz >psc_cut.gz
run 2 ingest psc_aaa.gz psc_cut.gz -o cut.h5 --quiet
stderr_has "psc_cut.gz"; stderr_has "gzip"; one_line_stderr
python3 -c "
import sys; b=bytearray(open('psc_aaa.gz','rb').read()); b[30:60]=bytes(x^0xff for x in b[30:60]); open('psc_bad.gz','wb').write(b)"
run 2 ingest psc_bad.gz -o bad.h5 --quiet
stderr_has "psc_bad.gz"; stderr_has "corrupt"
[ ! -e cut.h5 ] && [ ! -e bad.h5 ] || fail "output left after a corrupt gzip"
no_leftovers
# Replaying the run from its manifest gives the same store and counts.
run 0 ingest --from-manifest psc.h5.manifest.json --quiet
grep -q '"match": true' out.txt || fail "replay of the 2MASS ingest did not match: $(cat out.txt err.txt)"

# --- Stellarium (when the package is installed)
stars=/usr/share/stellarium/stars/default
if [ -f "$stars/stars_0_0v0_8.cat" ]; then
  run 0 ingest "$stars"/stars_0_0v0_8.cat "$stars"/stars_1_0v0_8.cat "$stars"/stars_2_0v0_8.cat "$stars"/stars_3_1v0_4.cat -o hip.h5 --quiet
  [ "$(json hip.h5.manifest.json 'd["counts"]["stars_written"]')" = 603418 ] || fail "Stellarium total"
  [ "$(json hip.h5.manifest.json 'd["store"]["order"]')" = 3 ] || fail "Stellarium order"
  run 2 ingest "$stars"/stars_0_0v0_8.cat -o v.h5 --band J --quiet
  stderr_has "V magnitudes"
  head -c 1000 "$stars/stars_0_0v0_8.cat" >broken.cat
  run 2 ingest broken.cat -o broken.h5 --quiet
  stderr_has "broken.cat"; stderr_has "zone table"
else
  echo "SKIPPED: Stellarium checks (stellarium-data not installed; make test installs it)"
fi

# --- synth: the same seed gives the same store, whatever the threads and memory
run 0 synth --count 40000 --seed 7 -o a.h5 --threads 1 --quiet
run 0 synth --count 40000 --seed 7 -o b.h5 --threads 2 --memory-limit 1M --quiet
run 0 synth --count 40000 --seed 8 -o c.h5 --quiet
[ "$(sha256sum <a.h5)" = "$(sha256sum <b.h5)" ] || fail "synth is not deterministic across threads/memory"
[ "$(sha256sum <a.h5)" != "$(sha256sum <c.h5)" ] || fail "synth ignores the seed"
[ "$(json b.h5.manifest.json 'd["counts"]["sort_runs_written"] > 1')" = True ] || fail "1M did not sort in runs"
no_leftovers
run 2 synth --count 0 -o z.h5 --quiet
stderr_has "--count"
run 2 synth --count 10 --quiet
stderr_has "exactly one"
# A full disk while the store is written: a file size limit (SIGXFSZ ignored, so that writes
# past it fail with EFBIG as on a full disk). Exit 1 with one line, nothing left. (Before HDF5's
# exit handler was turned off, the failed file's close crashed the process after the message.)
sh -c 'trap "" XFSZ; ulimit -f 400; exec "$@"' sh "$tool" synth --count 100000 --seed 3 \
  -o full.h5 --quiet >out.txt 2>err.txt
status=$?
[ "$status" -eq 1 ] || fail "full disk: exit $status, expected 1: $(head -c 300 err.txt)"
stderr_has "cannot write"
one_line_stderr
ls full.h5* >/dev/null 2>&1 && fail "a failed write left $(ls full.h5*)"
no_leftovers
# synth -> psc_*.gz -> ingest: every star comes back unless its J is an upper limit.
mkdir psc
run 0 synth --count 30000 --seed 3 --psc-dir psc --psc-files 3 --quiet
[ "$(ls psc/psc_*.gz | wc -l)" = 3 ] || fail "psc file count"
[ -f psc/psc.manifest.json ] || fail "psc manifest"
[ "$(zcat psc/psc_*.gz | wc -l)" = 30000 ] || fail "psc rows"
run 0 ingest psc/psc_*.gz -o from_psc.h5 --quiet
written=$(json from_psc.h5.manifest.json 'd["counts"]["stars_written"]')
unusable=$(json from_psc.h5.manifest.json 'd["rejections"]["by_reason"].get("reference_band_unusable", 0)')
[ $((written + unusable)) = 30000 ] || fail "psc round trip: $written + $unusable != 30000"
[ "$(json from_psc.h5.manifest.json 'd["rejections"]["total"]')" = "$unusable" ] || fail "psc rows rejected for other reasons"

# --- info --png
run 0 info a.h5 --png map.png --width 256 --quiet
[ -s map.png ] && [ -f map.png.manifest.json ] || fail "density map or its manifest missing"
[ "$(head -c 8 map.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "map.png is not a PNG"
run 2 info a.h5 --png map.png --quiet
stderr_has "exists"
run 2 info stars.csv --quiet
stderr_has "stars.csv"; stderr_has "not an HDF5"
run 2 info missing.h5 --quiet
stderr_has "missing.h5"

# --- paths that are no file, said as what they are (as input and as store)
mkdir folder.csv folder.h5
: >empty.h5
run 2 ingest folder.csv --band V -o from_folder.h5 --quiet
stderr_has "folder.csv: is a folder, not a file"; one_line_stderr
[ ! -e from_folder.h5 ] || fail "a folder as input left a store"
for device in /dev/zero /dev/null; do
  run 2 ingest "$device" --format csv --band V -o from_device.h5 --quiet
  stderr_has "$device: is not a regular file"; one_line_stderr
  [ ! -e from_device.h5 ] || fail "$device as input left a store"
  run 2 info "$device" --quiet
  stderr_has "$device: is not a regular file"; one_line_stderr
done
run 2 info folder.h5 --quiet
stderr_has "folder.h5: is a folder, not a file"; one_line_stderr
run 2 info empty.h5 --quiet
stderr_has "empty.h5: is empty"; one_line_stderr

# --- CSV with a column mapping: a catalogue-style header (extra columns, another order, comment
# lines) gives the stars of the strict format, with the mapped ids
printf 'ra,dec,mag,teff\n10.5,20.25,5.5,5800\n200.125,-45.5,7.25,4200\n' >strict.csv
printf '# from a catalogue service\nSource,DE_ICRS,Plx,RA_ICRS,Vmag,Teff\n4295806720,20.25,1.2,10.5,5.5,5800\n-17,-45.5,,200.125,7.25,4200\n' >mapped.csv
run 0 ingest strict.csv --band V -o strict.h5 --quiet
run 0 ingest mapped.csv --band V --columns ra=RA_ICRS,dec=DE_ICRS,mag=Vmag,teff=Teff,id=Source \
  -o mapped.h5 --quiet
/usr/bin/python3 - strict.h5 mapped.h5 <<'PY' || fail "mapped CSV: stars differ from the strict CSV's"
import sys, h5py, numpy as np
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
assert (a["/stars/table"][:] == b["/stars/table"][:]).all()
ids = dict(zip(b["/stars/table"]["ra"].tolist(), b["/stars/source"]["id"].tolist()))
assert ids == {10.5: 4295806720, 200.125: -17}, ids
assert b.attrs["id_scheme"] == b"CSV column Source", b.attrs["id_scheme"]
order = np.argsort(a["/stars/table"]["ra"])
assert a["/stars/source"]["id"][order].tolist() == [1, 2]   # row numbers without an id column
assert b["/stars/source"]["mag"][order].tolist() == [5.5, 7.25]
PY
json mapped.h5.manifest.json 'd["parameters"]["columns"]["ra"]' | grep -qx RA_ICRS ||
  fail "the manifest does not record the column mapping"
# The same stars as ECSV written by astropy (space- and comma-delimited): the same store.
/usr/bin/python3 - <<'PY' || fail "astropy could not write the ECSV files"
from astropy.table import Table
import astropy.units as u
t = Table({"Source": [4295806720, -17], "RA_ICRS": [10.5, 200.125], "DE_ICRS": [20.25, -45.5],
           "Vmag": [5.5, 7.25], "Teff": [5800.0, 4200.0]})
for column, unit in (("RA_ICRS", u.deg), ("DE_ICRS", u.deg), ("Vmag", u.mag), ("Teff", u.K)):
    t[column].unit = unit
t.write("space.ecsv", format="ascii.ecsv")
t.write("comma.ecsv", format="ascii.ecsv", delimiter=",")
t.write("stars.fits", format="fits")   # a binary table in HDU 2, TUNITn from the units
PY
run 0 ingest stars.fits --band V --columns ra=RA_ICRS,dec=DE_ICRS,mag=Vmag,teff=Teff,id=Source \
  -o fits.h5 --quiet
for ecsv in space comma; do
  run 0 ingest $ecsv.ecsv --format csv --band V \
    --columns ra=RA_ICRS,dec=DE_ICRS,mag=Vmag,teff=Teff,id=Source -o $ecsv.h5 --quiet
  /usr/bin/python3 - mapped.h5 $ecsv.h5 <<'PY' || fail "$ecsv.ecsv: stars differ from the CSV's"
import sys, h5py
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
assert (a["/stars/table"][:] == b["/stars/table"][:]).all()
assert (a["/stars/source"][:] == b["/stars/source"][:]).all()
PY
done
/usr/bin/python3 - mapped.h5 fits.h5 <<'PY' || fail "stars.fits: stars differ from the CSV's"
import sys, h5py
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
assert (a["/stars/table"][:] == b["/stars/table"][:]).all()
assert (a["/stars/source"][:] == b["/stars/source"][:]).all()
assert b.attrs["id_scheme"] == b"FITS column Source", b.attrs["id_scheme"]
PY

# --- Gaia: --band G with a BP-RP column, as CSV, ECSV (unit mag) and FITS: temperatures from
# Mucciarelli, Bellazzini & Massari 2021 (dwarfs, [Fe/H] = 0) and V from G through the Riello
# et al. 2021 G-V relation, both written out here from the papers' coefficients; colours
# outside either relation's range are clamped to its end and counted.
printf 'source_id,ra,dec,phot_g_mean_mag,bp_rp,parallax\n11,10.5,20.25,5.0,0.82,1.0\n12,30.0,-5.0,6.0,0.1,2.0\n13,50.0,5.0,7.0,6.0,3.0\n14,70.0,15.0,8.0,-1.0,4.0\n' >gaia.csv
gaia_columns=ra=ra,dec=dec,mag=phot_g_mean_mag,bp_rp=bp_rp,id=source_id
run 0 ingest gaia.csv --band G --columns $gaia_columns -o gaia.h5 --quiet
/usr/bin/python3 - <<'PY' || fail "astropy could not write the Gaia ECSV and FITS files"
from astropy.table import Table
t = Table.read("gaia.csv", format="ascii.csv")
for column, unit in (("ra", "deg"), ("dec", "deg"), ("phot_g_mean_mag", "mag"), ("bp_rp", "mag")):
    t[column].unit = unit
t.write("gaia.ecsv", format="ascii.ecsv")
t.write("gaia.fits", format="fits")
PY
run 0 ingest gaia.ecsv --band G --columns $gaia_columns -o gaia_ecsv.h5 --quiet
run 0 ingest gaia.fits --band G --columns $gaia_columns -o gaia_fits.h5 --quiet
/usr/bin/python3 - gaia.h5 gaia_ecsv.h5 gaia_fits.h5 <<'PY' || fail "Gaia G and BP-RP: stars differ from the published relations"
import json, sys, h5py, numpy as np
def teff(c):  # Mucciarelli, Bellazzini & Massari 2021, table 1, dwarfs, (BP-RP)0, [Fe/H] = 0
    c = min(max(c, 0.39), 1.50)
    return 5040.0 / (0.4929 + 0.5092 * c - 0.0353 * c * c)
def g_minus_v(c):  # Riello et al. 2021, table C.2, valid for -0.5 < BP-RP < 5.0 (table C.1)
    c = min(max(c, -0.5), 5.0)
    return -0.02704 + 0.01424 * c - 0.2156 * c ** 2 + 0.01426 * c ** 3
stars = {11: (5.0, 0.82), 12: (6.0, 0.1), 13: (7.0, 6.0), 14: (8.0, -1.0)}
first = None
for path in sys.argv[1:]:
    f = h5py.File(path, "r")
    assert f.attrs["band"] == b"G", f.attrs["band"]
    assert f.attrs["F0"] == 3640.0 and f.attrs["band_wavelength_um"] == 0.551
    assert f.attrs["teff_relation"] == b"mucciarelli2021-dwarfs-bp-rp", f.attrs["teff_relation"]
    table, source = f["/stars/table"][:], f["/stars/source"][:]
    for row, src in zip(table, source):
        g, c = stars[int(src["id"])]
        assert src["mag"] == np.float32(g), (src, g)          # the catalogue's G is kept
        assert abs(row["teff"] / teff(c) - 1) < 1e-6, (row, teff(c))
        v = g - g_minus_v(c)
        assert abs(row["flux"] / (3640.0 * 10 ** (-0.4 * v)) - 1) < 1e-6, (row, v)
    if first is None:
        first = (table, source)
    else:
        assert (first[0] == table).all() and (first[1] == source).all(), path
    counts = json.load(open(path + ".manifest.json"))["counts"]
    want = {"teff_from_colour": 1, "teff_clamped_blue": 2, "teff_clamped_red": 1,
            "g_to_v_converted": 2, "g_to_v_clamped_blue": 1, "g_to_v_clamped_red": 1}
    assert {k: counts[k] for k in want} == want, counts
# The Sun as an independent reference: (BP-RP)0 = 0.82 (Casagrande & VandenBerg 2018) gives
# within 2 sigma (61 K) of its 5772 K (IAU 2015 B3).
sun = [r["teff"] for r, s in zip(first[0], first[1]) if s["id"] == 11][0]
assert abs(sun - 5772) < 122, sun
PY
run 0 info gaia.h5 --quiet
grep -q "band G (F0 3640 Jy at 0.551 um)" out.txt && grep -q "^magnitude (V from G) " out.txt ||
  fail "info of a G store: $(cat out.txt)"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all catalog command-line checks passed"
