#!/usr/bin/env bash
# Command-line behaviour of starlens-splat: outputs, determinism, streaming from stdin,
# replays, and every bad-input path (exit status, one-line message, nothing left behind).
# usage: splat_cli.sh SPLAT SYNTH_EVENTS COMPARE
set -uo pipefail
splat=$1 synth=$2 compare=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"

cd "$work"
"$synth" --distribution mixed --count 20000 --width 320 --height 200 --seed 7 -o events.sle --quiet ||
  { echo "FAIL: synth-events"; exit 1; }

# A frame, its manifest and a PNG; the manifest's class counts add up.
expect 0 "" "$splat" -i events.sle -o frame.exr --png frame.png --quiet
[ -s frame.exr ] && [ -s frame.png ] && [ -s frame.exr.manifest.json ] || fail "outputs missing"
python3 - frame.exr.manifest.json <<'PY' || fail "manifest counts"
import json, sys
m = json.load(open(sys.argv[1]))
c = m["counts"]
assert c["events"] == c["events_cache"] + c["events_wing_clip"] + c["events_direct"], c
assert c["events"] > 0 and c["contributions"] > c["events"], c
assert len(m["inputs"][0]["sha256_tree"]) == 64 and len(m["outputs"]) == 2
for phase in ("read", "accumulate", "accumulate_cache", "accumulate_direct", "binning", "write_exr", "total"):
    assert phase in m["timings_s"], phase
PY

# Identical bytes for identical inputs, whatever the thread count (and so the bands of rows
# the threads share out).
mkdir one two many
(cd one && "$splat" -i ../events.sle -o frame.exr --threads 1 --quiet) || fail "1 thread"
(cd two && "$splat" -i ../events.sle -o frame.exr --threads 2 --quiet) || fail "2 threads"
(cd many && "$splat" -i ../events.sle -o frame.exr --threads 24 --quiet) || fail "24 threads"
cmp -s one/frame.exr two/frame.exr || fail "frames differ between 1 and 2 threads"
cmp -s one/frame.exr many/frame.exr || fail "frames differ between 1 and 24 threads"

# Streaming from standard input gives the same frame.
mkdir piped
(cd piped && "$splat" -i - -o frame.exr --quiet <../events.sle) || fail "stdin"
"$compare" frame.exr piped/frame.exr --budget <(echo '{"max_abs": 0}') >/dev/null || fail "stdin frame differs"

# Replays: median timings over K runs.
expect 0 "" "$splat" -i events.sle -o replay.exr --repeat 3 --quiet
python3 -c "import json; assert len(json.load(open('replay.exr.manifest.json'))['timings_s']['replays_total']) == 3" ||
  fail "replays not recorded"

# The count backend validates and counts without a frame.
expect 0 "" "$splat" -i events.sle --backend count --quiet
grep -q '"events_direct"' stdout || fail "count backend output"

# Bad input: each exits 2 with one line, and leaves no output under the final name.
# The command line: a misspelt flag is named, outputs are named as their formats.
expect 2 "unknown argument '--outptu'" "$splat" -i events.sle --outptu x.exr --quiet
expect 2 "--output: standard output ('-') is not supported" "$splat" -i events.sle -o - --quiet
expect 2 "--output: 'x.png' names a PNG file, but this output is OpenEXR" "$splat" -i events.sle -o x.png --quiet
expect 2 "--png: 'x.exr' names an OpenEXR file" "$splat" -i events.sle -o x.exr --png x.exr --quiet
expect 2 "--threads: -1 is negative" "$splat" -i events.sle -o x.exr --threads -1 --quiet
ls x.* - >/dev/null 2>&1 && fail "a refused command line left $(ls x.* - 2>/dev/null)"
"$splat" --help | grep -q -- "--threads INT:COUNT=0 *Worker threads, 0 for all cores" || fail "--help: threads"
size=$(stat -c %s events.sle)
head -c $((size - 100)) events.sle >truncated.sle
expect 2 "truncated.sle" "$splat" -i truncated.sle -o t.exr --quiet
[ ! -e t.exr ] || fail "truncated stream left a frame"
cp events.sle flipped.sle
printf '\xff' | dd of=flipped.sle bs=1 seek=$((256 + 32 + 1000)) conv=notrunc status=none
expect 2 "chunk 0" "$splat" -i flipped.sle -o f.exr --quiet
[ ! -e f.exr ] || fail "corrupt stream left a frame"
printf 'NOTSTARLENSSTREAM' >foreign.sle
expect 2 "foreign.sle" "$splat" -i foreign.sle -o g.exr --quiet
expect 2 "missing.sle" "$splat" -i missing.sle -o m.exr --quiet
expect 2 "does not exist" "$splat" -i events.sle -o p.exr --png nowhere/p.png --quiet
[ ! -e p.exr ] || fail "bad PNG path left a frame"
expect 2 "exists" "$splat" -i events.sle -o frame.exr --quiet
expect 0 "" "$splat" -i events.sle -o frame.exr --force --quiet
expect 2 "repeat" "$splat" -i - -o r.exr --repeat 2 --quiet
expect 2 "backend" "$splat" -i events.sle -o b.exr --backend magic --quiet
expect 2 "output" "$splat" -i events.sle --quiet

# Header fields that set what splat allocates (the header has no checksum): a frame side
# beyond 65536 px, more than 2^28 pixels, or a phase cache beyond 2 GiB is refused when the
# header is read, naming the stream and the field, before anything is allocated.
# patch FILE OFFSET VALUE: a copy of events.sle with the u32 at OFFSET set to VALUE.
patch() {
  python3 - "$@" <<'PY'
import struct, sys
path, offset, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = bytearray(open("events.sle", "rb").read())
data[offset:offset + 4] = struct.pack("<I", value)
open(path, "wb").write(data)
PY
}
patch wide.sle 20 16777216          # width 2^24 (was 4-6 GB and 20 s of work)
expect 2 "wide.sle: header: width: is 16777216, above the 65536 px" "$splat" -i wide.sle -o w.exr --quiet
[ ! -e w.exr ] && [ ! -e w.exr.manifest.json ] || fail "wide header left a frame"
patch zip.sle 20 4194304            # width 2^22 (crashed in OpenEXR's ZIP writer)
expect 2 "zip.sle: header: width: is 4194304" "$splat" -i zip.sle -o z.exr --quiet
patch tall.sle 24 4294967295
expect 2 "tall.sle: header: height: is 4294967295" "$splat" -i tall.sle --backend count --quiet
patch square.sle 20 65536 && python3 - <<'PY'
import struct
data = bytearray(open("square.sle", "rb").read())
data[24:28] = struct.pack("<I", 65536)
open("square.sle", "wb").write(data)
PY
expect 2 "square.sle: header: width x height: 65536 x 65536 = 4294967296 pixels" \
  "$splat" -i square.sle -o s.exr --quiet
[ ! -e s.exr ] || fail "square header left a frame"
patch cache.sle 48 100000           # cache radius 100000 px: a 640 GB phase cache
expect 2 "cache.sle: header: cache radius and phases: a phase cache of radius 100000 px" \
  "$splat" -i cache.sle -o c.exr --quiet
patch phases.sle 52 2147483647
expect 2 "phases.sle: header: cache radius and phases" "$splat" -i phases.sle -o p.exr --quiet
[ ! -e c.exr ] && [ ! -e p.exr ] || fail "cache header left a frame"

echo "splat_cli: $failures failure(s)"
[ "$failures" = 0 ]
