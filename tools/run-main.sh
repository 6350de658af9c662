#!/usr/bin/env bash
# The main job: installs what is missing (Debian 12 packages), builds cl2vk and its OpenCL corpus,
# then translates every corpus module into Vulkan SPIR-V with cl2vk-opt and prints one line per
# module: the translated module's summary, or why it cannot be translated yet.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build

translated=0
total=0
while IFS= read -r module; do
  [ -n "$module" ] || continue
  total=$((total + 1))
  name=${module#"$PWD/build/"}
  if line=$(build/tools/cl2vk-opt --validate --stats "$module" -o /dev/null 2>&1); then
    translated=$((translated + 1))
    echo "${line#"$module: "}" | sed "s|^|$name: |"
  else
    echo "$name: not translated: ${line#*"$module: "}"
  fi
done < build/spirv/corpus.txt
echo "run-main: $translated of $total modules translated to valid Vulkan SPIR-V"
