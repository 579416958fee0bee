#!/usr/bin/env bash
# python/ installs with pip from the repository without network (--no-index) and without a
# build environment of its own (--no-build-isolation: Debian's setuptools), and the installed
# copy is the one imported, with the version pyproject.toml declares.
# usage: pip_install.sh PYTHON SOURCE_ROOT
set -uo pipefail
python=$1 source_root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A copy, so that setuptools' build/ and *.egg-info stay out of the source tree.
cp -r "$source_root/python" "$work/src"
rm -rf "$work/src/build" "$work/src"/*.egg-info
if ! "$python" -m pip install --quiet --no-index --no-build-isolation --no-cache-dir \
  --target "$work/site" "$work/src" >"$work/log" 2>&1; then
  cat "$work/log"
  echo "FAIL: pip install"
  exit 1
fi
want=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$source_root/python/pyproject.toml")
cd "$work" &&
  PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$work/site" "$python" - "$work/site" "$want" <<'PY'
import os, sys
import starlens
site, want = sys.argv[1], sys.argv[2]
assert os.path.dirname(os.path.dirname(starlens.__file__)) == site, starlens.__file__
assert starlens.__version__ == want, (starlens.__version__, want)
for name in starlens.__all__:
    getattr(starlens, name)
print(f"pip_install: starlens {starlens.__version__} imported from {starlens.__file__}")
PY
