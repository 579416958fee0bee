#!/usr/bin/env bash
# Outputs committed whole (docs/design.md section 2), through the tools' command lines:
# - a write failure injected for real (RLIMIT_FSIZE with SIGXFSZ ignored: the write that crosses
#   the limit fails with EFBIG) at the main output and at the manifest of splat, synth-events,
#   produce, catalog ingest and trace: exit 1, one line naming the file and the error, nothing
#   under a final name, no temporary or lock file left, an earlier complete run left as it was;
# - concurrent writers of one output: every trial ends with a stream whose size and tree hash
#   (Python's hashlib) are those its manifest records, the loser refused with exit 2;
# - a lock held by another program refuses the writer, naming the output and the holder's pid;
# - kill -9 mid-write leaves nothing under the final names, and the next run removes the
#   killed run's temporary.
# usage: commit_cli.sh SPLAT SYNTH_EVENTS CATALOG TRACE PRODUCE
set -uo pipefail
splat=$1 synth=$2 catalog=$3 trace=$4 produce=$5
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
source "$(dirname "$0")/../cli_expect.sh"
cd "$work"

# The tree hash of docs/formats/manifest.md, and the manifest's record of its first output.
tree_hash() {
  python3 - "$1" <<'PY'
import hashlib, sys
digests = []
with open(sys.argv[1], "rb") as file:
    while chunk := file.read(4 << 20):
        digests.append(hashlib.sha256(chunk).digest())
print(hashlib.sha256(b"".join(digests)).hexdigest(), end="")
PY
}
recorded() {  # MANIFEST -> "size hash" of its first output
  python3 -c "import json,sys; o=json.load(open(sys.argv[1]))['outputs'][0]; print(o['size'], o['sha256_tree'], end='')" "$1"
}
committed() {  # OUTPUT: present with its manifest, which records its size and hash
  [ -f "$1" ] && [ -f "$1.manifest.json" ] &&
    [ "$(recorded "$1.manifest.json")" = "$(stat -c %s "$1") $(tree_hash "$1")" ]
}
no_leftovers() {
  local left
  left=$(find . -name '*.tmp.*' -o -name '*.lock' | head -5)
  [ -z "$left" ] || fail "$1: temporary or lock files left: $left"
}

suppressions=$(cd "$(dirname "$0")" && pwd)/lsan_hdf5.supp

# Runs a tool with a file size limit of LIMIT KiB (bash's ulimit -f unit, so that stderr,
# also a file, still takes the one-line message); expects exit 1, one line naming FILE with
# "File too large", and none of the FINALS.
limited() {  # LIMIT FILE "FINALS" command...
  local limit=$1 file=$2 finals=$3; shift 3
  (
    trap '' XFSZ
    ulimit -f "$limit"
    export LSAN_OPTIONS="suppressions=$suppressions:print_suppressions=0"
    exec "$@" >"$work/stdout" 2>"$work/stderr"
  )
  local got=$?
  [ "$got" = 1 ] || fail "'$*' under ulimit -f $limit exited $got, expected 1: $(cat stderr)"
  grep -q -- "error: $file: .*File too large" stderr ||
    fail "'$*' under ulimit -f $limit: stderr does not name $file and the error: $(cat stderr)"
  [ "$(wc -l <stderr)" = 1 ] || fail "'$*': error is not one line: $(cat stderr)"
  for final in $finals; do [ ! -e "$final" ] || fail "'$*' left $final under its final name"; done
  no_leftovers "$*"
}

# --- splat: the frame (an 8x8 EXR is over 1 KiB) and the manifest (a 2x2 EXR and its PNG are
# under 1 KiB, the manifest over it).
"$synth" --count 40 --width 8 --height 8 -o wide.sle --quiet || fail "synth wide.sle"
"$synth" --count 3 --width 2 --height 2 --psf-fwhm 1 -o tiny.sle --quiet || fail "synth tiny.sle"
limited 1 f.exr "f.exr f.png f.exr.manifest.json" "$splat" -i wide.sle -o f.exr --png f.png --quiet
limited 1 f.exr.manifest.json "f.exr f.png f.exr.manifest.json" \
  "$splat" -i tiny.sle -o f.exr --png f.png --quiet
# Over an earlier complete run (--force): it stays as it was, byte for byte.
expect 0 "" "$splat" -i wide.sle -o f.exr --png f.png --quiet
mkdir earlier && cp f.exr f.png f.exr.manifest.json earlier/
(
  trap '' XFSZ
  ulimit -f 1
  exec "$splat" -i tiny.sle -o f.exr --png f.png --quiet --force 2>stderr
)
[ $? = 1 ] || fail "splat --force under ulimit -f 1 did not fail"
for name in f.exr f.png f.exr.manifest.json; do
  cmp -s "$name" "earlier/$name" || fail "a failed --force run changed the earlier $name"
done
committed f.exr || fail "the earlier frame is no longer committed"
no_leftovers "splat --force"

# --- synth-events: the stream (40 events: over 1 KiB) and the manifest.
limited 1 s.sle "s.sle s.sle.manifest.json" "$synth" --count 40 -o s.sle --quiet
limited 1 s.sle.manifest.json "s.sle s.sle.manifest.json" "$synth" --count 3 -o s.sle --quiet

# --- catalog ingest, trace and produce: the HDF5 outputs (over 1 KiB), produce's stream (60
# stars in the field) and produce's manifest (one event: a stream under 1 KiB).
python3 - >stars.csv <<'PY'
import random
random.seed(1)
print("ra,dec,mag,teff")
for i in range(60):
    print(f"{100 + random.uniform(-15, 15):.6f},{20 + random.uniform(-10, 10):.6f},"
          f"{random.uniform(2, 8):.2f},{random.uniform(3000, 20000):.0f}")
PY
limited 1 c.h5 "c.h5 c.h5.manifest.json" "$catalog" ingest stars.csv --band V -o c.h5 --quiet
camera="--spacetime minkowski --bh-ra 100 --bh-dec 20 --fov 40 --width 16 --height 12"
limited 1 l.h5 "l.h5 l.h5.manifest.json" "$trace" $camera -o l.h5 --quiet
expect 0 "" "$catalog" ingest stars.csv --band V -o c.h5 --quiet
expect 0 "" "$trace" $camera -o l.h5 --quiet
committed c.h5 || fail "ingest: the store is not committed with its manifest"
committed l.h5 || fail "trace: the lens map is not committed with its manifest"
limited 1 p.sle "p.sle p.sle.manifest.json" "$produce" -l l.h5 -c c.h5 -o p.sle --quiet
limited 1 p.sle.manifest.json "p.sle p.sle.manifest.json" \
  "$produce" -l l.h5 -c c.h5 -o p.sle --max-events 1 --quiet
expect 0 "" "$produce" -l l.h5 -c c.h5 -o p.sle --quiet
committed p.sle || fail "produce: the stream is not committed with its manifest"
no_leftovers "successful runs"

# --- Concurrent writers of one output: the stream and the manifest always belong to one run.
refused=0
for trial in $(seq 1 10); do
  "$synth" --count 50000 --seed $((2 * trial)) -o race.sle --force --quiet 2>race_a.err &
  a=$!
  "$synth" --count 50000 --seed $((2 * trial + 1)) -o race.sle --force --quiet 2>race_b.err &
  b=$!
  wait $a
  status_a=$?
  wait $b
  status_b=$?
  for result in "$status_a race_a.err" "$status_b race_b.err"; do
    set -- $result
    if [ "$1" = 2 ]; then
      refused=$((refused + 1))
      grep -q "race.sle: output is being written by another process (pid [0-9]*); refusing" "$2" ||
        fail "trial $trial: a refused writer does not name the output and the other: $(cat "$2")"
    elif [ "$1" != 0 ]; then
      fail "trial $trial: a writer exited $1: $(cat "$2")"
    fi
  done
  committed race.sle || fail "trial $trial: the stream and its manifest belong to different runs"
done
echo "concurrent writers: 10 trials, $refused writers refused"
no_leftovers "concurrent writers"

# --- A lock held by another program: refused before any work, naming the holder.
python3 - held.sle.lock ready <<'PY' &
import fcntl, os, sys, time
lock = open(sys.argv[1], "w")
fcntl.flock(lock, fcntl.LOCK_EX)
lock.write(f"{os.getpid()}\n")
lock.flush()
open(sys.argv[2], "w").close()
time.sleep(60)
PY
holder=$!
for _ in $(seq 1 500); do [ -e ready ] && break; sleep 0.02; done
expect 2 "held.sle: output is being written by another process (pid $holder); refusing" \
  "$synth" --count 10 -o held.sle --quiet
[ ! -e held.sle ] || fail "a refused writer wrote held.sle"
kill $holder
wait $holder 2>/dev/null
expect 0 "" "$synth" --count 10 -o held.sle --quiet
committed held.sle || fail "held.sle is not committed after the holder ended"
no_leftovers "lock held by another program"

# --- kill -9 mid-write: nothing under the final names; the next run removes the temporary.
"$synth" --count 20000000 -o killed.sle --quiet &
victim=$!
for _ in $(seq 1 1000); do
  temp=$(find . -name "killed.sle.tmp.$victim.*" -size +0 | head -1)
  [ -n "$temp" ] && break
  sleep 0.01
done
kill -9 $victim
wait $victim 2>/dev/null
[ -n "$temp" ] && [ -e "$temp" ] || fail "the killed run's temporary was never seen"
[ ! -e killed.sle ] && [ ! -e killed.sle.manifest.json ] ||
  fail "a run killed mid-write left a final name"
expect 0 "" "$synth" --count 10 -o killed.sle --quiet
[ ! -e "$temp" ] || fail "the next run did not remove the killed run's temporary $temp"
committed killed.sle || fail "the run after the killed one is not committed"
no_leftovers "after kill -9"

[ "$failures" = 0 ] && echo "commit_cli: all passed"
exit $((failures > 0))
