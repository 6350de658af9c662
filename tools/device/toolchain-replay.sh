#!/usr/bin/env bash
# Records and replays the runtime's clang-15 / llvm-spirv-15 calls, so that tests which build
# OpenCL C from source (icd_tests) run on a machine without the toolchain: the GPU machine, whose
# upload limit the LLVM packages would fill.
#
# Link this script as `clang-15` and `llvm-spirv-15` in a directory and point the runtime at the
# links (CL2VK_CLANG=DIR/clang-15 CL2VK_LLVM_SPIRV=DIR/llvm-spirv-15). With
# CL2VK_TOOLCHAIN_RECORD=1 each call runs the real tool (/usr/bin/<name>) and stores what it wrote
# in CL2VK_TOOLCHAIN_CACHE; otherwise the call is answered from the cache, and a call that was not
# recorded fails with a message saying so (the runtime then reports the build as failed).
#
# A call's key: the tool, its arguments and every file under the working directory (the runtime runs
# each tool in a fresh directory holding only the source and the previous steps' output) except the
# log the tool's own output goes to.
set -euo pipefail
tool=$(basename "$0")
cache=${CL2VK_TOOLCHAIN_CACHE:?set CL2VK_TOOLCHAIN_CACHE to the cache directory}
files() { find . -type f ! -path ./cl2vk/tool-output.log -printf "$1"; }
key=$({
  printf '%s\0' "$tool" "$@"
  files '%P\0' | sort -z | xargs -0r sha256sum
} | sha256sum | cut -c1-40)
entry=$cache/$key
if [ "${CL2VK_TOOLCHAIN_RECORD:-0}" = 1 ]; then
  mkdir -p "$cache"
  before=$(mktemp)
  files '%P %T@ %s\n' | sort > "$before"
  status=0
  "/usr/bin/$tool" "$@" > "$entry.out" 2> "$entry.err" || status=$?
  echo "$status" > "$entry.status"
  changed=$(files '%P %T@ %s\n' | sort | comm -13 "$before" - | cut -d' ' -f1)
  rm -f "$before"
  tar -cf "$entry.tar" --files-from /dev/null
  [ -n "$changed" ] && tar -cf "$entry.tar" $changed
  cat "$entry.out"
  cat "$entry.err" >&2
  exit "$status"
fi
if [ ! -f "$entry.status" ]; then
  echo "toolchain-replay: $tool $* was not recorded in $cache" >&2
  exit 127
fi
tar -xf "$entry.tar"
cat "$entry.out"
cat "$entry.err" >&2
exit "$(cat "$entry.status")"
