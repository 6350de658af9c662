#!/usr/bin/env bash
# Runs the pyopencl client suite (tests/clients) on cl2vk: the ctest entry `pyopencl_clients` calls
# it with the build tree's OpenCL vendors directory in OCL_ICD_VENDORS (so nothing is installed).
#   run_clients.sh <python3> [pytest arguments...]
# Tests that fail for a known cause that is being fixed are listed, with the cause, in
# known_failures.txt; they are printed here and deselected, so that the rest must pass. Run
# with CL2VK_CLIENTS_ALL=1 to run them too (the list is then only printed).
# In a sanitized build, CL2VK_TEST_PRELOAD names the sanitizer's run-time library, which python (not
# sanitized) must load before libcl2vk_icd.so; python's own allocations are not leak-checked.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${1:?usage: run_clients.sh <python3> [pytest arguments...]}
shift

export PYOPENCL_TEST=${PYOPENCL_TEST:-cl2vk}
# Every kernel goes through the source compiler and the translator, not pyopencl's binary cache.
export PYOPENCL_NO_CACHE=1
if [ -n "${CL2VK_TEST_PRELOAD:-}" ]; then
  # libstdc++ too: python does not link it, and ASan's __cxa_throw interceptor finds the real
  # function only in a library loaded with it (else pyopencl's first C++ exception stops the
  # interpreter: "CHECK failed: asan_interceptors.cpp:320 real___cxa_throw != 0").
  export LD_PRELOAD="$CL2VK_TEST_PRELOAD libstdc++.so.6"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi

deselect=()
known="$here/known_failures.txt"
count=0
while IFS= read -r line; do
  case "$line" in '' | '#'*) continue ;; esac
  id=${line%%[[:space:]]*}
  count=$((count + 1))
  [ "${CL2VK_CLIENTS_ALL:-0}" = 1 ] || deselect+=(--deselect "tests/clients/$id")
done <"$known"
if [ "$count" -gt 0 ]; then
  echo "== $count known failures (tests/clients/known_failures.txt)$([ "${CL2VK_CLIENTS_ALL:-0}" = 1 ] && echo ', run anyway' || echo ', deselected'):"
  grep -Ev '^(#|$)' "$known" | sed 's/^/   /'
fi

# The whole suite unless the arguments name test files (tests/clients/test_x.py[::test]).
paths=(tests/clients)
for argument in "$@"; do
  case "$argument" in *.py | *.py::*) paths=() ;; esac
done
cd "$here/../.."
# --capture=sys: pytest captures Python's output only, so what the ICD, the sanitizers or the
# validation layer write to file descriptor 2 reaches the log even when it ends the interpreter.
exec "$python" -m pytest "${paths[@]}" -p no:cacheprovider --capture=sys -rfEs "${deselect[@]}" "$@"
