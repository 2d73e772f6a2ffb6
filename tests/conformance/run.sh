#!/usr/bin/env bash
# Runs Apache MXNet 1.9.1's own Python unit tests (kept unmodified in $SHARED/mxnet-tests, read at run
# time, never copied into the project) against gluonjax through its `import mxnet` alias, one pytest
# process per file. Adapted from shared/conformance/run.sh.
#
# usage: run.sh [-p PYTHON] [-o OUT] <test_file.py> ...   (or `all`)
#   OUT/gluonjax/<file>.xml|.log|.rc ; OUT/suite is a copy of the suite (the tests write beside themselves)
# env: SHARED (default: <repo>/../shared), TIMEOUT (per test, s; default 120), FILE_TIMEOUT (per file, s, then
#      an interrupt, so that pytest still writes the results so far;
#      default 3600), GJ_SHIM=1 (diagnostic placeholders for names missing at import; see the plugin).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
SHARED="${SHARED:-$repo/../shared}"
PY=python3; OUT="${TMPDIR:-/tmp}/conformance"
while getopts "p:o:" o; do case "$o" in p) PY="$OPTARG";; o) OUT="$OPTARG";; *) exit 2;; esac; done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { sed -n '2,10p' "$0"; exit 2; }
SRC="$SHARED/mxnet-tests/tests"
if [ ! -f "$SRC/python/unittest/common.py" ]; then
  echo "conformance: MXNet 1.9.1's test suite is not at $SRC (expected a copy of shared/ beside the" \
       "repository: ../shared/mxnet-tests); set SHARED=/path/to/shared" >&2
  exit 3
fi
label=gluonjax; [ "${GJ_SHIM:-}" = 1 ] && label=gluonjax_shim
WORK="$OUT/suite"
if [ ! -f "$WORK/python/unittest/common.py" ] || [ ! -d "$WORK/python/train" ]; then
  rm -rf "$WORK"
  mkdir -p "$WORK" && cp -r "$SRC/python" "$WORK/" && chmod -R u+w "$WORK"
fi
UT="$WORK/python/unittest"
mkdir -p "$OUT/$label"
if [ "$1" = all ]; then set -- $(cd "$UT" && ls test_*.py); fi
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
# The suite makes thousands of one-off shapes: the persistent compilation cache would only fill up
# (and its file lock, shared with other processes, cost more than compiling: ~10x on test_ndarray).
export GLUONJAX_COMPILATION_CACHE="${GLUONJAX_COMPILATION_CACHE:-0}"
export XLA_FLAGS="${XLA_FLAGS:---xla_force_host_platform_device_count=4}" JAX_PLATFORMS="${JAX_PLATFORMS:-cpu}"
export PYTHONPATH="$here:$repo:$WORK/python/train${PYTHONPATH:+:$PYTHONPATH}"
for spec in "$@"; do
  f="$(basename "$spec")"; name="${f%.py}"; ids=("$f")
  echo "== $label $name ($(date -u +%H:%M:%S))" >&2
  (cd "$UT" && timeout -s INT -k 60 "${FILE_TIMEOUT:-3600}" "$PY" -m pytest -p mxnet_alias_plugin \
      -p no:cacheprovider -p no:warnings -v --tb=short -rN --timeout "${TIMEOUT:-120}" --timeout-method signal \
      --junitxml "$OUT/$label/$name.xml" -o junit_family=xunit1 "${ids[@]}") > "$OUT/$label/$name.log" 2>&1
  echo "$?" > "$OUT/$label/$name.rc"
  tail -1 "$OUT/$label/$name.log" >&2
done
