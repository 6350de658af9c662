#!/usr/bin/env bash
# The test command: installs what is missing (Debian 12 packages), builds cl2vk with warnings as
# errors, and runs every test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCL2VK_WERROR=ON
cmake --build build
ctest --test-dir build --output-on-failure -j"$(nproc)"
bash tools/fuzz/run-fuzz.sh --ci  # libFuzzer over the translator: build-fuzz/ and about 75 s
