#!/usr/bin/env bash
# The main job: installs what is missing (Debian 12 packages), builds cl2vk's OpenCL runtime,
# installs it as an OpenCL ICD (lib/libcl2vk_icd.so.0 and /etc/OpenCL/vendors/cl2vk.icd), and runs
# examples/collectives_demo.c: an unmodified OpenCL host program that builds a kernel with
# work-group reductions and scans from source, runs it on the default device (the first GPU, else
# lavapipe) through the ICD loader, checks it against the CPU and says what ran, where and how long
# it took.
#
#   bash tools/run-main.sh               the default device
#   bash tools/run-main.sh swiftshader   SwiftShader, the CPU Vulkan driver install-deps.sh takes
#                                        out of Debian's chromium-common (not registered with the
#                                        Vulkan loader, so it is added for this run only)
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
  "") ;;
  swiftshader)
    export VK_ADD_DRIVER_FILES=/usr/local/share/cl2vk/swiftshader/vk_swiftshader_icd.json
    export CL2VK_DEVICE=SwiftShader
    ;;
  *)
    echo "run-main: unknown device '$1' (none for the default device, or swiftshader)" >&2
    exit 2
    ;;
esac

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --target cl2vk_icd collectives_demo

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" cmake --install build --component icd

build/examples/collectives_demo
