#!/usr/bin/env bash
# The main job: installs what is missing (Debian 12 packages), builds cl2vk's OpenCL runtime,
# installs it as an OpenCL ICD (lib/libcl2vk_icd.so and /etc/OpenCL/vendors/cl2vk.icd), and runs
# examples/collectives_demo.c: an unmodified OpenCL host program that builds a kernel with
# work-group reductions and scans from source, runs it on the default device (the first GPU, else
# lavapipe) through the ICD loader, checks it against the CPU and says what ran, where and how long
# it took.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --target cl2vk_icd collectives_demo

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" cmake --install build

build/examples/collectives_demo
