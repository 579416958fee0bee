# Sourced by the command-line tests: `fail` counts a failure; `expect STATUS PATTERN command...`
# runs a command in $work and checks its exit status and, when PATTERN is given, that stderr
# is one line matching it.
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect() {
  local want=$1 pattern=$2; shift 2
  "$@" >"$work/stdout" 2>"$work/stderr"
  local got=$?
  [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(cat "$work/stderr")"
  if [ -n "$pattern" ]; then
    grep -q -- "$pattern" "$work/stderr" || fail "'$*': stderr lacks '$pattern': $(cat "$work/stderr")"
    [ "$(wc -l <"$work/stderr")" = 1 ] || fail "'$*': error is not one line: $(cat "$work/stderr")"
  fi
}
