#!/usr/bin/env bash
# The main job: installs what is missing (Debian 12 packages), builds cl2vk and its OpenCL corpus,
# then runs every corpus module through cl2vk-opt with validation and prints one line per module.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build

failures=0
while IFS= read -r module; do
  [ -n "$module" ] || continue
  if ! build/tools/cl2vk-opt --validate --stats "$module" -o /dev/null 2>&1 | sed "s|^$PWD/build/||"; then
    failures=$((failures + 1))
  fi
done < build/spirv/corpus.txt
if [ "$failures" -ne 0 ]; then
  echo "run-main: $failures module(s) failed" >&2
  exit 1
fi
