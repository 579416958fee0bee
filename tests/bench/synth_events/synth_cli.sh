#!/usr/bin/env bash
# Command-line behaviour of starlens-synth-events: determinism, standard output, manifest
# counts and hashes, bounded memory, replay, and every bad-argument path (exit status 2, one
# line naming the flag or file, nothing left behind).
# usage: synth_cli.sh SYNTH_EVENTS
set -uo pipefail
synth=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../../cli_expect.sh"

cd "$work"
small=(--count 5000 --width 320 --height 200 --chunk-events 1000 --quiet)

# Determinism: the same seed gives the same bytes, another seed other bytes.
for distribution in uniform hotspot mixed; do
  expect 0 "" "$synth" --distribution "$distribution" --seed 3 "${small[@]}" -o "$distribution-a.sle"
  expect 0 "" "$synth" --distribution "$distribution" --seed 3 "${small[@]}" -o "$distribution-b.sle"
  expect 0 "" "$synth" --distribution "$distribution" --seed 4 "${small[@]}" -o "$distribution-c.sle"
  cmp -s "$distribution-a.sle" "$distribution-b.sle" || fail "$distribution: same seed, different bytes"
  cmp -s "$distribution-a.sle" "$distribution-c.sle" && fail "$distribution: different seeds, same bytes"
done

# Standard output carries the same stream (and writes no manifest).
"$synth" --distribution mixed --seed 3 "${small[@]}" -o - >piped.sle 2>piped.err ||
  fail "-o - exited $?: $(cat piped.err)"
cmp -s piped.sle mixed-a.sle || fail "stdout stream differs from the file"
[ -e ./-.manifest.json ] && fail "a manifest was written for standard output"

# Manifest: class counts add up, mixed shares, chunks, and the recorded size and hash.
python3 - mixed-a.sle <<'PY' || fail "manifest of mixed-a.sle"
import hashlib, json, os, sys
path = sys.argv[1]
m = json.load(open(path + ".manifest.json"))
c = m["counts"]
assert m["tool"] == "starlens-synth-events", m["tool"]
assert c["events"] == 5000, c
assert c["events"] == c["events_cache"] + c["events_wing_clip"] + c["events_direct"], c
assert c["events_drawn"] == c["events"] + c["events_discarded"], c
assert c["events_direct"] >= 0.01 * c["events"] and c["events_wing_clip"] >= 0.01 * c["events"], c
assert c["chunks"] == 5, c
out = m["outputs"][0]
data = open(path, "rb").read()
assert out["path"] == path and out["size"] == len(data) == os.path.getsize(path), out
# The tree hash of docs/formats/manifest.md, computed with hashlib.
tree = hashlib.sha256(b"".join(hashlib.sha256(data[i:i + (4 << 20)]).digest()
                               for i in range(0, len(data), 4 << 20))).hexdigest()
assert out["hash"] == "sha256-tree-4MiB" and out["sha256_tree"] == tree, out
# 256-byte header, 5 chunks and the end chunk of 32-byte headers, 56-byte records.
assert len(data) == 256 + 6 * 32 + 5000 * 56, len(data)
assert data[:8] == b"STLNEVT1", data[:8]
p = m["parameters"]
assert p["distribution"] == "mixed" and p["seed"] == 3 and p["psf"]["cache_radius"] == 16, p
PY

# --count 0: a valid stream of the header and the end chunk.
expect 0 "" "$synth" --count 0 -o empty.sle --quiet
[ "$(stat -c %s empty.sle)" = 288 ] || fail "empty stream is $(stat -c %s empty.sle) bytes, expected 288"

# Replay from the manifest reproduces the bytes and counts.
expect 0 "" "$synth" --from-manifest mixed-a.sle.manifest.json
cmp -s mixed-a.sle mixed-a.replay.sle || fail "replay differs"

# Memory does not grow with --count (streamed in chunks): peak RSS of 2M vs 8M events. The
# writer's hash ring holds up to 34 blocks of 4 MiB (fewer on fewer cores); 2M events (112 MB)
# fill it on most machines, so the two runs differ by less than 40 MiB, where a stream held in
# memory would differ by 336 MB.
python3 - "$synth" <<'PY' || fail "memory grows with --count"
import resource, subprocess, sys
def peak_kb(count):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.argv[1], "--count", str(count), "-o", f"rss-{count}.sle", "--quiet"], check=True)
    return max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
small = peak_kb(2000000)
large = peak_kb(8000000)
assert large < small + 40 * 1024, (small, large)
PY
rm -f rss-*.sle*

# Bad arguments: exit 2, one line naming the flag or file; nothing left behind.
expect 2 "--distribution" "$synth" --distribution spiral -o bad.sle
expect 2 "--count" "$synth" --count -5 -o bad.sle
expect 2 "--seed" "$synth" --seed -1 -o bad.sle
expect 2 "--count" "$synth" --count 1e3x -o bad.sle
expect 2 "--count" "$synth" --count 99999999999999999999999 -o bad.sle
expect 2 "--width" "$synth" --width 0 -o bad.sle
expect 2 "--chunk-events" "$synth" --chunk-events 0 -o bad.sle
expect 2 "--psf-beta" "$synth" --psf-beta 1 -o bad.sle
expect 2 "--psf-fwhm" "$synth" --psf-fwhm -2 -o bad.sle
expect 2 "--psf-max-radius" "$synth" --psf-max-radius 8 -o bad.sle
expect 2 "--flux-max" "$synth" --flux-max 1e-12 -o bad.sle
expect 2 "--output" "$synth" --count 10
expect 2 "does not exist" "$synth" --count 10 -o missing/bad.sle
[ -e bad.sle ] && fail "bad.sle written by a rejected run"
cp mixed-a.sle before.sle
expect 2 "output exists" "$synth" --count 10 -o mixed-a.sle --quiet
cmp -s mixed-a.sle before.sle || fail "existing output changed without --force"
echo stale >stale.sle.manifest.json
expect 2 "output exists" "$synth" --count 10 -o stale.sle --quiet
[ -e stale.sle ] && fail "stream written although its manifest path was taken"
expect 0 "" "$synth" --count 10 -o mixed-a.sle --force --quiet
cmp -s mixed-a.sle before.sle && fail "--force did not replace the output"
ls ./*.tmp.* >/dev/null 2>&1 && fail "temporary files left: $(ls ./*.tmp.*)"

# A full disk is a run failure (exit 1) with one line.
expect 1 "No space left on device" sh -c "\"\$0\" --count 100000 --quiet -o - >/dev/full" "$synth"

expect 0 "" "$synth" --version
grep -q "starlens-synth-events" stdout || fail "--version output"
expect 0 "" "$synth" --help

if [ "$failures" -gt 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "synth-events command line: all checks passed"
