#!/usr/bin/env bash
# starlens-compare on the command line: exit statuses 0/1/2, messages, and the files it
# leaves (or does not leave) behind. Frames come from the make_test_frame helper.
set -uo pipefail
compare=$1
make_frame=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0

# expect STATUS PATTERN -- command...: runs it, checks the exit status and that stderr+stdout
# matches the extended regular expression PATTERN (empty: no check).
expect() {
  local want=$1 pattern=$2
  shift 3
  "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" -ne "$want" ] || { [ -n "$pattern" ] && ! grep -Eq -- "$pattern" out.txt err.txt; }; then
    echo "FAIL: $* -> exit $got (want $want, /$pattern/)"
    sed 's/^/  stdout: /' out.txt
    sed 's/^/  stderr: /' err.txt
    failures=$((failures + 1))
  else
    echo "ok: exit $got: $*"
  fi
}
no_file() {
  if [ -e "$1" ]; then
    echo "FAIL: $1 exists"
    failures=$((failures + 1))
  fi
}
one_line() {
  if [ "$(wc -l <err.txt)" -ne 1 ]; then
    echo "FAIL: stderr is not one line:"
    cat err.txt
    failures=$((failures + 1))
  fi
}

"$make_frame" --width 96 --height 70 --seed 4 -o ref.exr
"$make_frame" --width 96 --height 70 --seed 4 -o same.exr
# One pixel changed by 1e-9 relative.
"$make_frame" --width 96 --height 70 --seed 4 --scale-pixel 17,33,G,1.000000001 -o one.exr
"$make_frame" --width 97 --height 70 --seed 4 -o wide.exr
"$make_frame" --width 96 --height 70 --seed 4 --viewer-only --set-pixel 5,6,R,nan -o nan.exr
"$make_frame" --width 96 --height 70 --seed 4 --viewer-only -o viewer.exr
echo '{"max_rel": 1e-12, "rel_floor": 1e-9}' >tight.json
echo '{"max_rel": 1e-12, "channels": {"Y": {"max_rel": 2e-9}}, "comment": "x"}' >per_channel.json
echo '{"max_rel": 1e-6, "total_rel": 1e-6}' >loose.json

echo "== identical frames pass"
expect 0 "within budget" -- "$compare" same.exr ref.exr --budget tight.json
expect 0 "" -- "$compare" ref.exr ref.exr --budget tight.json

echo "== one pixel changed by 1e-9 relative fails a 1e-12 budget, naming channel, limit, pixel"
expect 1 "over budget: G max_rel = 1e-09 > 1e-12 at pixel \(17, 33\)" -- \
  "$compare" one.exr ref.exr --budget tight.json
expect 0 "within budget" -- "$compare" one.exr ref.exr --budget loose.json
# Only G was changed: a budget tight on R and B but loose on G and Y passes.
echo '{"max_rel": 1e-12, "channels": {"G": {"max_rel": 2e-9}, "Y": {"max_rel": 2e-9}}}' >g_loose.json
expect 0 "" -- "$compare" one.exr ref.exr --budget g_loose.json
expect 1 "G max_rel" -- "$compare" one.exr ref.exr --budget per_channel.json

echo "== different sizes exit 2 naming both sizes"
expect 2 "frame sizes differ: wide.exr is 97 x 70, ref.exr is 96 x 70" -- \
  "$compare" wide.exr ref.exr --budget tight.json
one_line

echo "== bad budgets exit 2"
echo '{"max_rel": 1e-12,' >broken.json
expect 2 "broken.json: not valid JSON" -- "$compare" same.exr ref.exr --budget broken.json
one_line
echo '{"max_rel": 1e-12, "maxabs": 1}' >unknown.json
expect 2 "unknown.json: maxabs: unknown key" -- "$compare" same.exr ref.exr --budget unknown.json
echo '{"max_rel": -1}' >negative.json
expect 2 "negative.json: max_rel" -- "$compare" same.exr ref.exr --budget negative.json
expect 2 "missing.json: budget cannot be opened" -- \
  "$compare" same.exr ref.exr --budget missing.json
expect 2 "--budget is required" -- "$compare" same.exr ref.exr
expect 2 "unknown argument '--budgte'" -- "$compare" same.exr ref.exr --budgte tight.json
expect 2 "--report: 'r.exr' names an OpenEXR file, but this output is JSON" -- \
  "$compare" same.exr ref.exr --budget tight.json --report r.exr
expect 2 "--report: standard output .'-'. is not supported" -- \
  "$compare" same.exr ref.exr --budget tight.json --report -

echo "== unreadable frames exit 2"
expect 2 "nothing.exr: cannot be opened" -- "$compare" nothing.exr ref.exr --budget tight.json
cp tight.json not_exr.exr
expect 2 "not_exr.exr: not an OpenEXR file" -- "$compare" not_exr.exr ref.exr --budget tight.json
head -c 3000 ref.exr >cut.exr
expect 2 "cut.exr" -- "$compare" ref.exr cut.exr --budget tight.json
one_line

echo "== a NaN in a frame is over budget (exit 1); FLOAT-only frames are compared as read"
expect 1 "R non_finite \(A\) = 1 > 0" -- "$compare" nan.exr viewer.exr --budget loose.json
expect 0 "FLOAT/HALF channels only" -- "$compare" viewer.exr viewer.exr --budget tight.json
expect 1 "max_rel" -- "$compare" viewer.exr ref.exr --budget tight.json

echo "== report, manifest and heat map"
expect 1 "" -- "$compare" one.exr ref.exr --budget tight.json --report report.json \
  --diff-png heat.png
python3 - <<'PY' || failures=$((failures + 1))
import json
report = json.load(open("report.json"))
assert report["passed"] is False, report["passed"]
g = report["channels"]["G"]
assert g["max_rel"]["pixel"] == [17, 33], g["max_rel"]
assert abs(g["max_rel"]["value"] - 1e-9) < 1e-15, g["max_rel"]["value"]
assert report["channels"]["R"]["max_abs"]["value"] == 0.0
assert report["over_budget"][0]["channel"] == "G"
assert report["a"]["exact_float64"] and report["b"]["exact_float64"]
manifest = json.load(open("report.json.manifest.json"))
assert manifest["tool"] == "starlens-compare"
assert [o["role"] for o in manifest["outputs"]] == ["report", "relative error heat map"]
assert len(manifest["inputs"]) == 3
print("ok: report and manifest contents")
PY
if [ "$(head -c 8 heat.png | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
  echo "FAIL: heat.png is not a PNG"
  failures=$((failures + 1))
fi
echo "== existing outputs need --force; nothing is overwritten"
cp report.json report.before
expect 2 "report.json: output exists \(use --force" -- \
  "$compare" same.exr ref.exr --budget tight.json --report report.json
cmp -s report.json report.before || { echo "FAIL: report overwritten"; failures=$((failures + 1)); }
expect 0 "" -- "$compare" same.exr ref.exr --budget tight.json --report report.json \
  --diff-png heat.png --force
grep -q '"passed": true' report.json || { echo "FAIL: --force did not rewrite"; failures=$((failures + 1)); }
echo "== outputs in a missing folder: exit 2, nothing written"
expect 2 "does not exist" -- "$compare" same.exr ref.exr --budget tight.json \
  --report absent/report.json
no_file absent
expect 2 "does not exist" -- "$compare" same.exr ref.exr --budget tight.json \
  --diff-png absent/heat.png
no_file absent
# A bad input found after the outputs were checked leaves no output either.
expect 2 "frame sizes differ" -- "$compare" wide.exr ref.exr --budget tight.json \
  --report late.json --diff-png late.png
no_file late.json
no_file late.png
no_file late.json.manifest.json
ls ./*.tmp.* 2>/dev/null && { echo "FAIL: temporary files left"; failures=$((failures + 1)); }

echo "== --manifests compares event counts by class"
manifest() { echo "{\"format\": \"starlens-manifest\", \"counts\": $2}" >"$1"; }
manifest ma.json '{"events": 10, "events_cache": 8, "events_direct": 2}'
manifest mb.json '{"events": 10, "events_cache": 8, "events_direct": 2, "contributions": 7}'
manifest mc.json '{"events": 10, "events_cache": 9, "events_direct": 1}'
manifest md.json '{"events": "ten"}'
expect 0 "event counts: equal" -- "$compare" same.exr ref.exr --budget tight.json \
  --manifests ma.json mb.json
expect 1 "event counts differ: events_cache: 8 in A, 9 in B" -- \
  "$compare" same.exr ref.exr --budget tight.json --manifests ma.json mc.json
expect 2 "md.json: counts.events" -- "$compare" same.exr ref.exr --budget tight.json \
  --manifests ma.json md.json
expect 2 "" -- "$compare" same.exr ref.exr --budget tight.json --manifests ma.json

echo "== --from-manifest replays a comparison and finds the same report"
expect 0 "" -- "$compare" same.exr ref.exr --budget tight.json --report replayed.json
expect 0 "outputs and counts match" -- "$compare" --from-manifest replayed.json.manifest.json
cmp -s replayed.json replayed.replay.json || { echo "FAIL: replayed report differs"; failures=$((failures + 1)); }

echo "== budgets that are not budget files exit 2 saying what they are"
mkdir budget_folder
expect 2 "budget_folder: is a folder, not a budget file" -- \
  "$compare" same.exr ref.exr --budget budget_folder
one_line
expect 2 "/dev/null: is a character device, not a budget file" -- \
  "$compare" same.exr ref.exr --budget /dev/null
one_line
: >empty_budget.json
expect 2 "empty_budget.json: is empty, not a budget" -- \
  "$compare" same.exr ref.exr --budget empty_budget.json
echo '[{"max_rel": 1}]' >array_budget.json
expect 2 "array_budget.json: a budget must be a JSON object" -- \
  "$compare" same.exr ref.exr --budget array_budget.json
expect 2 "tight.json/below: budget cannot be opened: Not a directory" -- \
  "$compare" same.exr ref.exr --budget tight.json/below
printf '{"comment": "\xff"}' >bytes_budget.json
expect 2 "bytes_budget.json: not valid JSON" -- "$compare" same.exr ref.exr --budget bytes_budget.json
one_line
head -c 2000000 /dev/zero | tr '\0' ' ' >huge_budget.json
expect 2 "huge_budget.json: 2000000 bytes: larger than any budget" -- \
  "$compare" same.exr ref.exr --budget huge_budget.json
expect 0 "within budget" -- "$compare" same.exr ref.exr --budget <(cat tight.json)

echo "== an EXR run digest that is not UTF-8 exits 2 naming the file and the attribute"
"$make_frame" --width 96 --height 70 --seed 4 --digest "$(printf 'a%.0s' {1..64})" -o digest.exr
python3 - <<'PY'
data = bytearray(open("digest.exr", "rb").read())
key = b"starlensRunDigest\0string\0"
at = data.index(key) + len(key) + 4  # past the attribute's 4-byte size
assert data[at:at + 64] == b"a" * 64
data[at + 3] = 0xFF
open("digest_ff.exr", "wb").write(data)
PY
expect 2 "digest_ff.exr: starlensRunDigest: byte 0xFF at offset 3 is not UTF-8" -- \
  "$compare" digest_ff.exr ref.exr --budget tight.json --report digest_report.json
one_line
no_file digest_report.json
no_file digest_report.json.manifest.json
expect 0 "" -- "$compare" digest.exr ref.exr --budget tight.json --report digest_report.json

echo "== manifests of the wrong shape or not files exit 2 naming the manifest and key path"
echo '{"format": "starlens-manifest", "counts": [1, 2]}' >counts_array.json
expect 2 "counts_array.json: counts: expected an object \(is an array\)" -- \
  "$compare" same.exr ref.exr --budget tight.json --manifests ma.json counts_array.json
echo '{"format": "starlens-manifest"}' >counts_missing.json
expect 2 "counts_missing.json: counts: missing" -- \
  "$compare" same.exr ref.exr --budget tight.json --manifests ma.json counts_missing.json
echo '{"format": ["starlens-manifest"], "counts": {}}' >format_array.json
expect 2 "format_array.json: format: expected a string \(is an array\)" -- \
  "$compare" same.exr ref.exr --budget tight.json --manifests ma.json format_array.json
expect 2 "budget_folder: is a folder, not a manifest file" -- \
  "$compare" same.exr ref.exr --budget tight.json --manifests ma.json budget_folder
expect 2 "/dev/null: is a character device, not a manifest file" -- \
  "$compare" --from-manifest /dev/null
python3 - <<'PY'
import json
m = json.load(open("replayed.json.manifest.json"))
m["argv"][2] = 2.5
json.dump(m, open("argv_number.json", "w"))
m = json.load(open("replayed.json.manifest.json"))
m["outputs"][0] = "replayed.json"
json.dump(m, open("output_string.json", "w"))
PY
expect 2 "argv_number.json: argv\[2\]: expected a string \(is a number\)" -- \
  "$compare" --from-manifest argv_number.json
one_line
expect 2 "output_string.json: outputs\[0\]: expected an object \(is a string\)" -- \
  "$compare" --from-manifest output_string.json

echo "== --help and --version"
expect 0 "--budget" -- "$compare" --help
expect 0 "starlens-compare" -- "$compare" --version

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all starlens-compare command-line checks passed"
