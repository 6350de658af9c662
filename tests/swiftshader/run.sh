#!/usr/bin/env bash
# Runs a gtest suite (or any program) on SwiftShader, the second CPU Vulkan driver of the tests
# (tools/install-deps.sh takes it out of Debian's chromium-common), with the Vulkan loader pointed
# at SwiftShader's driver alone:
#
#   run.sh <known-failures file> <program> [arguments...]
#
# The known-failures file lists gtest patterns, one per line, each with the reason after '#': the
# cases that fail on SwiftShader for a cause outside cl2vk or not yet fixed. They are printed, with
# their reasons, and left out of the run; everything else must pass. A missing driver fails the
# test: the test command installs it.
set -euo pipefail
known=$1
shift
icd=${CL2VK_SWIFTSHADER_ICD:-/usr/local/share/cl2vk/swiftshader/vk_swiftshader_icd.json}
if [ ! -f "$icd" ]; then
  echo "swiftshader: no SwiftShader driver at $icd (bash tools/install-deps.sh installs it)" >&2
  exit 1
fi
export VK_DRIVER_FILES=$icd
unset VK_ADD_DRIVER_FILES CL2VK_DEVICE
exclude=
while IFS= read -r line; do
  pattern=${line%%#*}
  pattern=${pattern//[[:space:]]/}
  [ -z "$pattern" ] && continue
  echo "swiftshader: not run: $pattern —${line#*#}"
  exclude="$exclude:$pattern"
done < "$known"
if [ -n "$exclude" ]; then
  exec "$@" "--gtest_filter=-${exclude#:}"
fi
exec "$@"
