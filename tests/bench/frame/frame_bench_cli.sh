#!/usr/bin/env bash
# bench/frame/run.sh at a tiny scale on the CPU backend: every stage runs, the table names each
# one with its wall time and memory, the stream goes both through a file and through a pipe, and
# the two frames (file and pipe) are the same bits; a bad argument exits 2 with a message.
# usage: frame_bench_cli.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
source_root=$1 build_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

bash "$source_root/bench/frame/run.sh" --build "$build_root" --work "$work" --stars 20000 \
  --width 320 --height 180 --fov 60 --min-y 1e-7 --backends cpu --threads 2 >"$work/out" 2>&1 ||
  { cat "$work/out" >&2; fail "run.sh exited $?"; }
for row in "lens map" "produce --sink count" "produce to a file" "splat cpu from the file" \
  "produce | splat, one pipe" "frame, trace + produce file + splat cpu"; do
  grep -q "^$row" "$work/out" || { cat "$work/out" >&2; fail "no row '$row'"; }
done
# The same events through the pipe: the same pixels, bit for bit (the headers differ in the
# run digest, which hashes the input: a file's content or standard input).
echo '{"max_rel": 0, "rel_floor": 0, "total_rel": 0, "non_finite": 0, "negative": 0}' >"$work/zero.json"
"$build_root/tools/compare/starlens-compare" "$work/frame-cpu.exr" "$work/frame-pipe.exr" \
  --budget "$work/zero.json" >"$work/compare" 2>&1 || { cat "$work/compare" >&2; fail "the piped frame differs from the file's"; }
[ ! -e "$work/events.sle" ] || fail "the stream was left behind without --keep-stream"

bash "$source_root/bench/frame/run.sh" --build "$build_root" --stars 2>"$work/err" >/dev/null
[ $? -eq 2 ] || fail "an option without its value did not exit 2"
grep -q -- "--stars needs a value" "$work/err" || fail "no message for an option without its value"
bash "$source_root/bench/frame/run.sh" --build "$build_root" --frobnicate 2>"$work/err" >/dev/null
[ $? -eq 2 ] || fail "an unknown argument did not exit 2"
grep -q "unknown argument '--frobnicate'" "$work/err" || fail "no message for an unknown argument"
bash "$source_root/bench/frame/run.sh" --build "$work/nowhere" 2>"$work/err" >/dev/null
[ $? -eq 2 ] || fail "a build folder without the tools did not exit 2"
echo "bench/frame: all checks passed"
