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

# Identical bytes for identical inputs, whatever the thread count.
mkdir one two
(cd one && "$splat" -i ../events.sle -o frame.exr --threads 1 --quiet) || fail "1 thread"
(cd two && "$splat" -i ../events.sle -o frame.exr --threads 2 --quiet) || fail "2 threads"
cmp -s one/frame.exr two/frame.exr || fail "frames differ between 1 and 2 threads"

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

echo "splat_cli: $failures failure(s)"
[ "$failures" = 0 ]
