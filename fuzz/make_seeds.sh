#!/usr/bin/env bash
# Seed corpora for the harnesses of fuzz/, made by the tools on small inputs: every file a
# parser reads, as the pipeline writes it (catalogue stores, lens maps, event streams, frames,
# manifests), and the catalogue inputs (CSV, 2MASS rows, Stellarium files cut down to a few
# stars per zone). Small files on purpose: libFuzzer mutates inputs up to the corpus' largest.
# usage: fuzz/make_seeds.sh BUILD_DIR OUT_DIR  (BUILD_DIR holds the tools; OUT_DIR/<harness>/)
# With STARLENS_SEEDS_WORK=DIR the inputs and outputs are made in DIR and kept there (their
# manifests name DIR as the folder they ran in, so --from-manifest replays them):
# bench/fuzz/cli_mutate.py mutates them.
set -euo pipefail
build=$(realpath "$1")
mkdir -p "$2"
out=$(realpath "$2")
catalog=$build/tools/catalog/starlens-catalog
trace=$build/tools/trace/starlens-trace
produce=$build/tools/produce/starlens-produce
splat=$build/tools/splat/starlens-splat
compare=$build/tools/compare/starlens-compare
stellarium_dir=${STELLARIUM_STARS_DIR:-/usr/share/stellarium/stars/default}
if [ -n "${STARLENS_SEEDS_WORK:-}" ]; then
  mkdir -p "$STARLENS_SEEDS_WORK"
  work=$(realpath "$STARLENS_SEEDS_WORK")
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
for harness in event_stream exr_frame lensmap catalog_store stellarium twomass csv_catalog \
  manifest_replay budget; do
  mkdir -p "$out/$harness"
done

# --- catalogue inputs and stores: CSV (both colour columns), 2MASS rows from synth, Stellarium.
printf 'ra,dec,mag,teff\n100.5,20.5,5.3,5800\n# a comment\n\n99.0,19.0,7.5,3500\n101,21,9,12000\n' \
  >stars_teff.csv
printf 'ra,dec,mag,bv\n100.2,20.1,4.0,0.65\n99.5,20.8,6.5,1.4\n0,-90,8,-0.2\n' >stars_bv.csv
"$catalog" ingest stars_teff.csv --band V -o teff.h5 --order 2 --deflate 9 --quiet
"$catalog" ingest stars_bv.csv --band V -o bv.h5 --order 0 --deflate 9 --quiet
mkdir -p psc
"$catalog" synth --count 12 --seed 5 --psc-dir psc --psc-files 1 --quiet
"$catalog" ingest psc/*.gz -o psc.h5 --deflate 9 --quiet
"$catalog" synth --count 30 --seed 6 -o synth.h5 --deflate 9 --quiet
# Stellarium: every installed level's header and zone table, with at most one star in every
# fifth zone (the zone table rewritten to match), so each seed is a few KB.
python3 - "$stellarium_dir" <<'PY'
import pathlib, struct, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("stars_[0-9]_*.cat")):
    data = path.read_bytes()
    words = struct.unpack_from("<8I", data)
    record = {0: 28, 1: 10, 2: 6}[words[1]]
    zones = 20 << (2 * words[4])
    sizes = struct.unpack_from(f"<{zones}I", data, 32)
    offset, kept, records = 32 + 4 * zones, [], []
    for zone, size in enumerate(sizes):
        keep = 1 if size and zone % 5 == 0 and len(records) < 24 else 0
        records.append(data[offset:offset + keep * record]) if keep else None
        kept.append(keep)
        offset += size * record
    small = data[:32] + struct.pack(f"<{zones}I", *kept) + b"".join(records)
    pathlib.Path(path.name).write_bytes(small)
PY
for cat in stars_*.cat; do cp "$cat" "$out/stellarium/$cat"; done
"$catalog" ingest stars_0_*.cat -o stellarium.h5 --deflate 9 --quiet
cp stars_teff.csv stars_bv.csv "$out/csv_catalog/"
zcat psc/*.gz >"$out/twomass/rows.txt"
head -3 "$out/twomass/rows.txt" | gzip -c >"$out/twomass/rows.gz"
for store in teff.h5 bv.h5 psc.h5 synth.h5 stellarium.h5; do cp "$store" "$out/catalog_store/"; done

# --- lens maps, event streams, frames: a tiny camera on the stars above.
camera="--bh-ra 100 --bh-dec 20 --fov 40 --width 24 --height 16 --mesh-step 4 --mesh-max-depth 2"
"$trace" --spacetime minkowski $camera -o flat.h5 --quiet
"$trace" --spacetime schwarzschild --r-obs 30 $camera -o hole.h5 --quiet
"$trace" --spacetime schwarzschild --r-obs 30 $camera --projection fisheye -o fisheye.h5 --quiet
cp flat.h5 hole.h5 fisheye.h5 "$out/lensmap/"
psf="--psf-cache-radius 3 --psf-phases 2 --psf-max-radius 8"
"$produce" -l hole.h5 -c teff.h5 -o hole.sle $psf --quiet
"$produce" -l flat.h5 -c bv.h5 -o flat.sle $psf --chunk-events 2 --quiet
cp hole.sle flat.sle "$out/event_stream/"
"$splat" -i hole.sle -o hole.exr --quiet
"$splat" -i flat.sle -o flat.exr --png flat.png --quiet
cp hole.exr flat.exr "$out/exr_frame/"

# --- budgets (docs/usage/compare.md) and every stage's manifest.
echo '{"max_rel": 1e-12, "rel_floor": 1e-9}' >"$out/budget/tight.json"
echo '{"max_abs": 0, "rms": 1e-3, "total_abs": 1, "total_rel": 1e-6, "non_finite": 0, "negative": 2,
  "channels": {"Y": {"max_rel": 2e-9}, "G": {"rel_floor": 1e-6}}, "comment": "per channel"}' \
  >"$out/budget/per_channel.json"
"$compare" hole.exr hole.exr --budget "$out/budget/tight.json" --report report.json >/dev/null
# Each manifest as written, and a variant that gets past the input checks wherever it is read
# (no working folder: the replay runs beside the manifest; no inputs to verify), so that
# mutations reach the argv and the output entries.
python3 - "$out/manifest_replay" *.manifest.json <<'PY'
import json, pathlib, sys
for name in sys.argv[2:]:
    manifest = json.loads(pathlib.Path(name).read_text())
    pathlib.Path(sys.argv[1], name).write_text(json.dumps(manifest, indent=2) + "\n")
    manifest.pop("cwd", None)
    manifest["inputs"] = []
    pathlib.Path(sys.argv[1], "anywhere-" + name).write_text(json.dumps(manifest) + "\n")
PY
echo "seeds: $(find "$out" -type f | wc -l) files, $(du -sk "$out" | cut -f1) KiB in $out"
