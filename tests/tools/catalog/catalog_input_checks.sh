#!/bin/bash
# Bad bytes and extreme values in what starlens-catalog reads, each made here by patching files
# the tools write: invalid UTF-8 in 2MASS rows (rejected, never copied into the manifest),
# extreme Stellarium header fields and CSV numbers (exit 2 naming file and field), manifests of
# the wrong shape for --from-manifest (exit 2 naming the manifest and the key path), a store
# string attribute and command-line arguments that are not UTF-8 (exit 2 naming them).
# Usage: catalog_input_checks.sh <starlens-catalog>
set -u
tool=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect STATUS PATTERN ARGS...: runs the tool; checks the exit status, and that stderr is one
# line holding PATTERN (when PATTERN is not empty).
expect() {
  local want=$1 pattern=$2; shift 2
  "$tool" "$@" >out.txt 2>err.txt
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, expected $want: $* :: $(head -c 300 err.txt)"
  if [ -n "$pattern" ]; then
    grep -qF -- "$pattern" err.txt || fail "$*: stderr lacks '$pattern': $(head -c 300 err.txt)"
    [ "$(wc -l <err.txt)" -eq 1 ] || fail "$*: stderr is not one line: $(cat err.txt)"
  fi
}
# A manifest must be strict JSON (UTF-8 strings only): Python's decoder is the reference.
strict_json() { python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

echo "== 2MASS: rows with bytes outside printable ASCII are rejected as not_ascii"
mkdir psc
expect 0 "" synth --count 2000 --seed 5 --psc-dir psc --psc-files 1 --quiet
# Line 5: 0xFF as the first byte of ra (a bad_ra detail would have quoted it); line 9: 0xFF in
# the designation, a field ingest does not use; line 12: a valid UTF-8 'é' in j_m (a detail cut
# at 40 bytes could split such a character); line 20: a NUL byte.
python3 - <<'PY'
import gzip
rows = gzip.open("psc/psc_aaa.gz").read().split(b"\n")
def patch(line, field, offset, new):
    fields = rows[line - 1].split(b"|")
    fields[field] = fields[field][:offset] + new + fields[field][offset + 1:]
    rows[line - 1] = b"|".join(fields)
patch(5, 0, 0, b"\xff")
patch(9, 5, 3, b"\xff")
patch(12, 6, 1, "é".encode())
patch(20, 2, 0, b"\x00")
gzip.open("psc_bytes.gz", "wb").write(b"\n".join(rows))
PY
expect 0 "" ingest psc_bytes.gz -o bytes.h5 --quiet
[ -f bytes.h5 ] && [ -f bytes.h5.manifest.json ] || fail "store or manifest missing"
strict_json bytes.h5.manifest.json || fail "the manifest is not strict UTF-8 JSON"
# The reference count: rows holding a byte outside 0x20..0x7e, counted by Python.
damaged=$(python3 -c '
import gzip
rows = gzip.open("psc_bytes.gz").read().split(b"\n")
print(sum(1 for r in rows if r and any(b < 0x20 or b > 0x7e for b in r)))')
[ "$damaged" = 4 ] || fail "the patch damaged $damaged rows, not 4"
[ "$(json bytes.h5.manifest.json 'd["rejections"]["by_reason"].get("not_ascii")')" = "$damaged" ] ||
  fail "not_ascii count: $(json bytes.h5.manifest.json 'd["rejections"]')"
[ "$(json bytes.h5.manifest.json '[e["line"] for e in d["rejections"]["examples"] if e["reason"] == "not_ascii"]')" = \
  "[5, 9, 12, 20]" ] || fail "not_ascii example lines"
[ "$(json bytes.h5.manifest.json '[e["detail"] for e in d["rejections"]["examples"] if e["line"] == 5][0]')" = \
  "byte 0xFF at column 1 (2MASS rows are printable ASCII)" ] || fail "not_ascii detail"
rows=$(json bytes.h5.manifest.json 'd["counts"]["rows_read"]')
written=$(json bytes.h5.manifest.json 'd["counts"]["stars_written"]')
rejected=$(json bytes.h5.manifest.json 'd["rejections"]["total"]')
[ "$rows" = 2000 ] && [ $((written + rejected)) = 2000 ] || fail "rows $rows, written $written, rejected $rejected"

echo "== Stellarium: every header field out of range exits 2 naming the file and the field"
# A level-0 catalogue of record type 2 with one star in zone 3 of magnitude code 31.
stellarium() {  # stellarium FILE TYPE MAJOR LEVEL MAG_MIN MAG_RANGE MAG_STEPS
  python3 - "$@" <<'PY'
import struct, sys
path, words = sys.argv[1], [int(w) for w in sys.argv[2:]]
record_type, major, level, mag_min, mag_range, mag_steps = words
header = struct.pack("<IIIIIiII", 0x835F040A, record_type, major, 0, level, mag_min, mag_range,
                     mag_steps)
zones = struct.pack("<20I", *[1 if z == 3 else 0 for z in range(20)])
record = (31 << 43).to_bytes(6, "little")  # mag:5 at bit 43, position and colour 0
open(path, "wb").write(header + zones + record)
PY
}
stellarium good.cat 2 0 0 6000 3000 30
expect 0 "" ingest good.cat -o good.h5 --quiet
[ "$(json good.h5.manifest.json 'd["counts"]["stars_written"]')" = 1 ] || fail "Stellarium star"
stellarium low.cat 2 0 0 -2147483648 3000 30
expect 2 "low.cat: header mag_min: -2147483648 millimag is outside [-30, 40] mag" ingest low.cat -o x.h5 --quiet
stellarium high.cat 2 0 0 2147483647 3000 30
expect 2 "high.cat: header mag_min: 2147483647 millimag" ingest high.cat -o x.h5 --quiet
stellarium range.cat 2 0 0 6000 4294967295 1
expect 2 "range.cat: header mag_range: 4294967295 millimag in 1 steps" ingest range.cat -o x.h5 --quiet
stellarium edge.cat 2 0 0 -30000 2258 1  # code 31 reaches 40.0 mag: still a star
expect 0 "" ingest edge.cat -o edge.h5 --quiet
stellarium steps.cat 2 0 0 6000 3000 0
expect 2 "steps.cat: header mag_steps: zero" ingest steps.cat -o x.h5 --quiet
stellarium level.cat 2 0 4294967295 6000 3000 30
expect 2 "level.cat: header level: 4294967295 above 8" ingest level.cat -o x.h5 --quiet
stellarium type.cat 2147483648 0 0 6000 3000 30
expect 2 "type.cat: header type: unknown record type 2147483648" ingest type.cat -o x.h5 --quiet
stellarium major.cat 2 4294967295 0 6000 3000 30
expect 2 "major.cat: header major version: 4294967295 is not 0" ingest major.cat -o x.h5 --quiet
[ ! -e x.h5 ] || fail "a store was written from a bad header"

echo "== CSV: NaN, infinities, huge and tiny numbers exit 2 naming the line and the field"
for value in nan inf -inf 1e308 -1e308 1e-999 ''; do
  for column in 0 1 2 3; do
    fields=(10.0 20.0 5.0 5800)
    fields[$column]=$value
    names=(ra dec mag teff)
    (IFS=,; printf 'ra,dec,mag,teff\n%s\n' "${fields[*]}") >extreme.csv
    expect 2 "extreme.csv: line 2: ${names[$column]}: " ingest extreme.csv --band V -o x.h5 --quiet
  done
done
printf 'ra,dec,mag,bv\n10,20,5,1e308\n' >bv.csv
expect 2 "bv.csv: line 2: bv: " ingest bv.csv --band V -o x.h5 --quiet

echo "== CSV --columns: bad mappings and what they do not find exit 2 naming flag or file, column"
map=ra=RA_ICRS,dec=DE_ICRS,mag=Vmag,teff=Teff,id=Source
# bad_file NAME CONTENT MESSAGE: NAME holding CONTENT, ingested with the mapping, exits 2 with
# "NAME: MESSAGE".
bad_file() {
  printf "$2" >"$1"
  expect 2 "$1: $3" ingest "$1" --band V --columns "$map" -o x.h5 --quiet
}
bad_file nan.csv '# comment\nSource,RA_ICRS,DE_ICRS,Vmag,Teff\n1,10,20,5,5800\n2,11,21,abc,5800\n' \
  "line 4: column Vmag: 'abc' is not a number"
bad_file badid.csv 'Source,RA_ICRS,DE_ICRS,Vmag,Teff\n1.5,10,20,5,5800\n' \
  "line 2: column Source: '1.5' is not an integer id"
bad_file absent.csv 'Source,RAJ2000,DE_ICRS,Vmag,Teff\n1,10,20,5,5800\n' \
  "line 1: header: no column 'RA_ICRS' (--columns ra=RA_ICRS)"
bad_file short.csv 'Source,RA_ICRS,DE_ICRS,Vmag,Teff\n1,10,20,5\n' \
  "line 2: columns: 4 fields, the header has 5"
bad_file noheader.csv '# only comments\n' "header: missing (required with --columns)"
expect 2 "--columns: colour: unknown key (keys: ra, dec, mag, teff or bv or bp_rp, id)" \
  ingest nan.csv --band V --columns "$map,colour=BP-RP" -o x.h5 --quiet
expect 2 "--columns: mag: missing (required)" \
  ingest nan.csv --band V --columns ra=RA_ICRS,dec=DE_ICRS,teff=Teff -o x.h5 --quiet
expect 2 "--columns: teff/bv/bp_rp: exactly one of teff, bv and bp_rp is required" \
  ingest nan.csv --band V --columns "$map,bv=BV" -o x.h5 --quiet
expect 2 "--columns: ra: given twice" \
  ingest nan.csv --band V --columns "$map,ra=X" -o x.h5 --quiet
expect 2 "--columns: dec: no column name (key=NAME)" \
  ingest nan.csv --band V --columns ra=RA_ICRS,dec=,mag=Vmag,teff=Teff -o x.h5 --quiet
expect 2 "--columns: maps CSV and FITS columns; the inputs are 2mass" \
  ingest missing.gz --columns "$map" -o x.h5 --quiet
printf '# %%ECSV 1.0\n# ---\n# datatype:\n# - {name: Source, datatype: int64}\n# - {name: RA_ICRS, unit: rad, datatype: float64}\n# - {name: DE_ICRS, unit: deg, datatype: float64}\n# - {name: Vmag, unit: mag, datatype: float64}\n# - {name: Teff, unit: K, datatype: float64}\nSource RA_ICRS DE_ICRS Vmag Teff\n1 0.2 20 5 5800\n' >rad.ecsv
expect 2 "rad.ecsv: ECSV column RA_ICRS: unit 'rad' is not deg (--columns ra)" \
  ingest rad.ecsv --format csv --band V --columns "$map" -o x.h5 --quiet
sed 's/unit: K,/unit: Celsius,/; s/unit: rad,/unit: deg,/' rad.ecsv >celsius.ecsv
expect 2 "celsius.ecsv: ECSV column Teff: unit 'Celsius' is not K (--columns teff)" \
  ingest celsius.ecsv --format csv --band V --columns "$map" -o x.h5 --quiet
sed 's/^# - {name: Teff.*$/# - {name: Teff, unit: [K/' celsius.ecsv >broken.ecsv
expect 2 "broken.ecsv: ECSV header: not YAML" \
  ingest broken.ecsv --format csv --band V --columns "$map" -o x.h5 --quiet
expect 2 "rad.ecsv: ECSV: --columns is required to name the columns to read" \
  ingest rad.ecsv --format csv --band V -o x.h5 --quiet
[ ! -e x.h5 ] || fail "a store was written from a bad --columns input"

echo "== FITS: an image, a missing column, another unit, a truncated file exit 2 naming them"
/usr/bin/python3 - <<'PY' || fail "astropy could not write the FITS files"
import numpy as np
from astropy.io import fits
from astropy.table import Table
import astropy.units as u
t = Table({"Source": [1, 2], "RA_ICRS": [10.5, 200.125], "DE_ICRS": [20.25, -45.5],
           "Vmag": [5.5, 7.25], "Teff": [5800.0, 4200.0]})
t["RA_ICRS"].unit = u.deg; t["DE_ICRS"].unit = u.deg; t["Teff"].unit = u.K
t.write("good.fits", format="fits")
t["RA_ICRS"].unit = u.rad
t.write("rad.fits", format="fits")
t["RA_ICRS"].unit = u.deg
t.remove_column("Teff")
t.write("noteff.fits", format="fits")
fits.PrimaryHDU(np.zeros((4, 4))).writeto("image.fits")
t = Table({"Source": np.arange(5000), "RA_ICRS": np.full(5000, 10.0), "DE_ICRS": np.zeros(5000),
           "Vmag": np.full(5000, 5.0), "Teff": np.full(5000, 5800.0)})
t["RA_ICRS"].unit = u.deg; t["DE_ICRS"].unit = u.deg; t["Teff"].unit = u.K
t.write("big.fits", format="fits")
PY
expect 0 "" ingest good.fits --band V --columns "$map" -o fits.h5 --quiet
expect 2 "image.fits: HDU 2: no table extension" ingest image.fits --band V --columns "$map" -o x.h5 --quiet
expect 2 "noteff.fits: column Teff: not in the table (--columns teff=Teff)" \
  ingest noteff.fits --band V --columns "$map" -o x.h5 --quiet
expect 2 "rad.fits: column RA_ICRS: unit 'rad' is not deg (--columns ra)" \
  ingest rad.fits --band V --columns "$map" -o x.h5 --quiet
head -c 100000 big.fits >cut.fits
expect 2 "unreadable (truncated or corrupt file?) (cfitsio: " ingest cut.fits --band V --columns "$map" -o x.h5 --quiet
expect 2 "--columns: required for FITS tables" ingest good.fits --band V -o x.h5 --quiet
printf 'SIMPLE  = T\n' >text.fits
expect 2 "text.fits: not a FITS file" ingest text.fits --band V --columns "$map" -o x.h5 --quiet
[ ! -e x.h5 ] || fail "a store was written from a bad FITS input"

echo "== Gaia: --band G and bp_rp, bad values exit 2 naming file, line (or row) and column"
gmap=ra=ra,dec=dec,mag=phot_g_mean_mag,bp_rp=bp_rp,id=source_id
printf 'source_id,ra,dec,phot_g_mean_mag,bp_rp\n1,10,20,5,0.8\n2,11,21,6,red\n' >gaia_nan.csv
expect 2 "gaia_nan.csv: line 3: column bp_rp: 'red' is not a number" \
  ingest gaia_nan.csv --band G --columns "$gmap" -o x.h5 --quiet
printf 'source_id,ra,dec,phot_g_mean_mag,bp_rp\n1,10,20,5,\n' >gaia_empty.csv
expect 2 "gaia_empty.csv: line 2: column bp_rp: '' is not a number" \
  ingest gaia_empty.csv --band G --columns "$gmap" -o x.h5 --quiet
printf 'source_id,ra,dec,phot_g_mean_mag,bp_rp\n1,10,20,5,12\n' >gaia_range.csv
expect 2 "gaia_range.csv: line 2: column bp_rp: 12.000000 outside [-2.000000, 10.000000]" \
  ingest gaia_range.csv --band G --columns "$gmap" -o x.h5 --quiet
printf 'source_id,ra,dec,phot_g_mean_mag,teff\n1,10,20,5,5800\n' >gaia_teff.csv
expect 2 "--band: G: needs the BP-RP colour for the G-V relation (--columns bp_rp=NAME)" \
  ingest gaia_teff.csv --band G --columns ra=ra,dec=dec,mag=phot_g_mean_mag,teff=teff -o x.h5 --quiet
printf 'ra,dec,mag,bv\n10,20,5,0.6\n' >stars_g.csv
expect 2 "--band: G: needs the BP-RP colour" ingest stars_g.csv --band G -o x.h5 --quiet
expect 2 "--columns: teff/bv/bp_rp: exactly one of teff, bv and bp_rp is required" \
  ingest gaia_nan.csv --band G --columns "$gmap,bv=bp_rp" -o x.h5 --quiet
printf '# %%ECSV 1.0\n# ---\n# datatype:\n# - {name: source_id, datatype: int64}\n# - {name: ra, unit: deg, datatype: float64}\n# - {name: dec, unit: deg, datatype: float64}\n# - {name: phot_g_mean_mag, unit: mag, datatype: float64}\n# - {name: bp_rp, unit: K, datatype: float64}\nsource_id ra dec phot_g_mean_mag bp_rp\n1 10 20 5 0.8\n' >gaia_unit.ecsv
expect 2 "gaia_unit.ecsv: ECSV column bp_rp: unit 'K' is not mag (--columns bp_rp)" \
  ingest gaia_unit.ecsv --band G --columns "$gmap" -o x.h5 --quiet
/usr/bin/python3 - <<'PY'
import numpy as np
from astropy.table import Table
t = Table({"source_id": np.array([1, 2], dtype=np.int64), "ra": [10.0, 11.0], "dec": [20.0, 21.0],
           "phot_g_mean_mag": [5.0, 6.0], "bp_rp": [0.8, np.nan]},
          units={"ra": "deg", "dec": "deg", "phot_g_mean_mag": "mag", "bp_rp": "mag"})
t.write("gaia_null.fits", format="fits")
t["bp_rp"].unit = "K"
t["bp_rp"][1] = 1.0
t.write("gaia_unit.fits", format="fits")
PY
expect 2 "gaia_null.fits: row 2: column bp_rp: nan is null or outside" \
  ingest gaia_null.fits --band G --columns "$gmap" -o x.h5 --quiet
expect 2 "gaia_unit.fits: column bp_rp: unit 'K' is not mag (--columns bp_rp)" \
  ingest gaia_unit.fits --band G --columns "$gmap" -o x.h5 --quiet
expect 2 "Stellarium catalogues have V magnitudes, not G" ingest good.cat --band G -o x.h5 --quiet
[ ! -e x.h5 ] || fail "a store was written from a bad Gaia input"

echo "== --from-manifest: manifests of the wrong shape exit 2 naming the manifest and key path"
printf 'ra,dec,mag,teff\n10.0,20.0,5.3,5800\n' >stars.csv
expect 0 "" ingest stars.csv --band V -o csv.h5 --quiet
expect 0 "" ingest --from-manifest csv.h5.manifest.json --quiet
rm -f csv.replay.h5 csv.replay.h5.manifest.json
# broken NAME PYTHON: m_NAME.json is the manifest after PYTHON changed its dict d.
broken() {
  python3 -c "import json; d = json.load(open('csv.h5.manifest.json')); $2
json.dump(d, open('m_$1.json', 'w'))"
}
broken version 'd["format_version"] = "2"'
broken version_gone 'del d["format_version"]'
broken version_float 'd["format_version"] = 2.5'
broken tool 'd["tool"] = None'
broken format 'd["format"] = 3'
broken argv_object 'd["argv"] = {"a": 1}'
broken argv_nested 'd["argv"][1] = ["ingest"]'
broken argv_gone 'del d["argv"]'
broken argv_empty 'd["argv"] = []'
broken inputs 'd["inputs"] = "stars.csv"'
broken input_path 'd["inputs"][0]["path"] = 5'
broken input_object 'd["inputs"][0] = ["stars.csv"]'
broken input_hash 'd["inputs"][0]["hash"] = 3'
broken input_digest 'd["inputs"][0]["sha256_tree"] = {"hex": d["inputs"][0]["sha256_tree"]}'
broken outputs 'd["outputs"] = {"path": "csv.h5"}'
broken output_hash 'd["outputs"][0]["hash"] = "md5"'
broken output_path 'del d["outputs"][0]["path"]'
broken parameters 'd["parameters"] = ["band", "V"]'
broken executable 'd["executable"] = "starlens-catalog"'
broken cwd 'd["cwd"] = 7'
m() { echo "$work/m_$1.json"; }
expect 2 "$(m version): format_version: expected an integer (is a string)" ingest --from-manifest "$(m version)"
expect 2 "$(m version_gone): format_version: missing" ingest --from-manifest "$(m version_gone)"
expect 2 "$(m version_float): format_version: expected an integer (is a number)" ingest --from-manifest "$(m version_float)"
expect 2 "$(m tool): tool: expected a string (is null)" ingest --from-manifest "$(m tool)"
expect 2 "$(m format): format: expected a string (is an integer)" ingest --from-manifest "$(m format)"
expect 2 "$(m argv_object): argv: expected an array (is an object)" ingest --from-manifest "$(m argv_object)"
expect 2 "$(m argv_nested): argv[1]: expected a string (is an array)" ingest --from-manifest "$(m argv_nested)"
expect 2 "$(m argv_gone): argv: missing" ingest --from-manifest "$(m argv_gone)"
expect 2 "$(m argv_empty): argv: is empty" ingest --from-manifest "$(m argv_empty)"
expect 2 "$(m inputs): inputs: expected an array (is a string)" ingest --from-manifest "$(m inputs)"
expect 2 "$(m input_path): inputs[0].path: expected a string (is an integer)" ingest --from-manifest "$(m input_path)"
expect 2 "$(m input_object): inputs[0]: expected an object (is an array)" ingest --from-manifest "$(m input_object)"
expect 2 "$(m input_hash): inputs[0].hash: expected a string (is an integer)" ingest --from-manifest "$(m input_hash)"
expect 2 "$(m input_digest): inputs[0].sha256_tree: expected a string (is an object)" ingest --from-manifest "$(m input_digest)"
expect 2 "$(m outputs): outputs: expected an array (is an object)" ingest --from-manifest "$(m outputs)"
expect 2 "$(m output_path): outputs[0].path: missing" ingest --from-manifest "$(m output_path)"
expect 2 "$(m output_hash): outputs[0].hash: entry for csv.h5 names the unknown hash scheme 'md5'" ingest --from-manifest "$(m output_hash)"
expect 2 "$(m parameters): parameters: expected an object (is an array)" ingest --from-manifest "$(m parameters)"
expect 2 "$(m executable): executable: expected an object (is a string)" ingest --from-manifest "$(m executable)"
expect 2 "$(m cwd): cwd: expected a string (is an integer)" ingest --from-manifest "$(m cwd)"
: >empty.json
expect 2 "$work/empty.json: is empty, not a manifest" ingest --from-manifest empty.json
echo '[1, 2]' >array.json
expect 2 "$work/array.json: not a starlens manifest (a JSON object; this is an array)" ingest --from-manifest array.json
printf '{"format": "starlens-manifest", "tool": "\xff"}' >bytes.json
expect 2 "$work/bytes.json: not valid JSON: " ingest --from-manifest bytes.json
mkdir folder.json
expect 2 "$work/folder.json: is a folder, not a manifest file" ingest --from-manifest folder.json
expect 2 "/dev/null: is a character device, not a manifest file" ingest --from-manifest /dev/null
expect 2 "$work/missing.json: manifest cannot be opened: No such file or directory" ingest --from-manifest missing.json
[ ! -e csv.replay.h5 ] || fail "a broken manifest was replayed"

echo "== a store's string attribute that is not UTF-8 exits 2 naming the store and the attribute"
# CSV with temperatures: teff_relation is "given", stored once, in no other string.
# The store's metadata carries checksums (docs/formats/catalog.md, "Limits"): the changed
# block's checksum is recomputed (Jenkins' lookup3, as HDF5 computes it) so that the value,
# not the checksum, is what the reader refuses.
python3 - <<'PY'
import struct
data = bytearray(open("csv.h5", "rb").read())
assert data.count(b"given") == 1
at = data.index(b"given")
data[at + 1] = 0xFF
def rot(x, k):
    return ((x << k) | (x >> (32 - k))) & 0xFFFFFFFF
def lookup3(key):
    n, m = len(key), 0xFFFFFFFF
    a = b = c = (0xDEADBEEF + n) & m
    def word(i, avail):
        return sum(key[i + j] << (8 * j) for j in range(min(avail, 4)))
    i = 0
    while n > 12:
        a, b, c = (a + word(i, 4)) & m, (b + word(i + 4, 4)) & m, (c + word(i + 8, 4)) & m
        a = ((a - c) & m) ^ rot(c, 4); c = (c + b) & m
        b = ((b - a) & m) ^ rot(a, 6); a = (a + c) & m
        c = ((c - b) & m) ^ rot(b, 8); b = (b + a) & m
        a = ((a - c) & m) ^ rot(c, 16); c = (c + b) & m
        b = ((b - a) & m) ^ rot(a, 19); a = (a + c) & m
        c = ((c - b) & m) ^ rot(b, 4); b = (b + a) & m
        n -= 12; i += 12
    if n == 0:
        return c
    a = (a + word(i, n)) & m
    if n > 4: b = (b + word(i + 4, n - 4)) & m
    if n > 8: c = (c + word(i + 8, n - 8)) & m
    c ^= b; c = (c - rot(b, 14)) & m
    a ^= c; a = (a - rot(c, 11)) & m
    b ^= a; b = (b - rot(a, 25)) & m
    c ^= b; c = (c - rot(b, 16)) & m
    a ^= c; a = (a - rot(c, 4)) & m
    b ^= a; b = (b - rot(a, 14)) & m
    c ^= b; c = (c - rot(b, 24)) & m
    return c
# The store's attributes are in dense storage: a fractal heap's direct block, whose checksum
# covers the block with the checksum field zeroed (block size and offset width from the heap
# header, FRHP: starting block size at byte 112, maximum heap size in bits at byte 128).
heap = data.rindex(b"FRHP", 0, at)
block = data.rindex(b"FHDB", 0, at)
block_size = int.from_bytes(data[heap + 112:heap + 120], "little")
offset_bytes = (int.from_bytes(data[heap + 128:heap + 130], "little") + 7) // 8
checksum = block + 4 + 1 + 8 + offset_bytes
assert block < at < block + block_size
data[checksum:checksum + 4] = bytes(4)
data[checksum:checksum + 4] = struct.pack("<I", lookup3(bytes(data[block:block + block_size])))
open("attr_ff.h5", "wb").write(data)
PY
expect 2 "attr_ff.h5: attribute teff_relation: byte 0xFF at offset 1 is not UTF-8" info attr_ff.h5 --json --quiet
expect 0 "" info csv.h5 --json --quiet

echo "== arguments that are not UTF-8 cannot be recorded in a manifest: exit 2 before any output"
cp stars.csv "$(printf 'st\xffrs.csv')"
expect 2 "command line: argument 2: byte 0xFF at offset 2 is not UTF-8 (a manifest records it in JSON" \
  ingest "$(printf 'st\xffrs.csv')" --band V -o y.h5 --quiet
[ ! -e y.h5 ] || fail "a store was written for an argument that is not UTF-8"
cp csv.h5 "$(printf 'c\xffv.h5')"
expect 2 "byte 0xFF at offset 1 is not UTF-8 (--json prints it" info "$(printf 'c\xffv.h5')" --json --quiet
cp csv.h5.manifest.json "$(printf 'm\xff.json')"
expect 2 "byte 0xFF at offset " ingest --from-manifest "$(printf 'm\xff.json')"

if [ "$failures" -ne 0 ]; then
  echo "$failures catalog input check(s) failed"
  exit 1
fi
echo "all catalog input checks passed"
