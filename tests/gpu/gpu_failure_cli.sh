#!/usr/bin/env bash
# The GPU backend's failure paths through starlens-splat, on any machine (CI has no GPU):
# an impossible device index exits 1 with one line naming the phase ("gpu device: ..."),
# leaves no frame and no manifest behind (no CPU fallback), and bad tuning variables exit 2.
# usage: gpu_failure_cli.sh SPLAT SYNTH_EVENTS
set -uo pipefail
splat=$1 synth=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS PATTERN command... : exit status and a one-line stderr matching PATTERN
expect() {
  local want=$1 pattern=$2; shift 2
  "$@" >"$work/stdout" 2>"$work/stderr"
  local got=$?
  [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(cat "$work/stderr")"
  grep -q -- "$pattern" "$work/stderr" || fail "'$*': stderr lacks '$pattern': $(cat "$work/stderr")"
  [ "$(wc -l <"$work/stderr")" = 1 ] || fail "'$*': error is not one line: $(cat "$work/stderr")"
}

cd "$work"
"$synth" --distribution mixed --count 2000 --width 64 --height 48 --seed 3 -o events.sle --quiet ||
  { echo "FAIL: synth-events"; exit 1; }

expect 1 "gpu device: " "$splat" -i events.sle -o frame.exr --backend gpu --gpu-device 4096 --quiet
[ ! -e frame.exr ] && [ ! -e frame.exr.manifest.json ] || fail "a failed GPU run left a frame or manifest"
ls | grep -q -v -x -e events.sle -e events.sle.manifest.json -e stdout -e stderr &&
  fail "a failed GPU run left files: $(ls)"

STARLENS_GPU_BATCH_EVENTS=0 expect 2 "STARLENS_GPU_BATCH_EVENTS" \
  "$splat" -i events.sle -o frame.exr --backend gpu --quiet
STARLENS_GPU_TILE_REFERENCES=many expect 2 "STARLENS_GPU_TILE_REFERENCES" \
  "$splat" -i events.sle -o frame.exr --backend gpu --quiet
[ ! -e frame.exr ] || fail "a rejected run left a frame"

[ "$failures" = 0 ] && echo "gpu failure paths: all checks passed"
exit $((failures > 0))
