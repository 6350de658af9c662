#!/usr/bin/env bash
# The test command: installs what is missing (Debian 12 packages), checks that the C++ sources
# are laid out as .clang-format says (clang-format-15; run it with -i to fix), then
#  1. builds all of cl2vk under AddressSanitizer + UndefinedBehaviorSanitizer, with warnings as
#     errors (build/), and runs every test suite through ctest, each test under the Vulkan
#     validation layer, which stops it at the first error or warning;
#  2. builds the translator's fuzz targets (build-fuzz/, clang-15, sanitizers and assertions) and
#     runs the fixed fuzzing pass: every seed and 16 structure-aware mutants of each, the same
#     inputs on every machine (about 5 minutes).
# The ThreadSanitizer run of the runtime's threaded tests is tools/run-tsan.sh: with it, this
# command would pass the 20 minutes a 2-core CI machine gives it.
# Any sanitizer report or validation message fails the test it happens in. docs/RELIABILITY.md
# says what each part checks and how to run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
# Runs a command and says how long it took, so that CI's log shows where the time goes.
timed() {
  local label=$1 start=$SECONDS
  shift
  "$@"
  echo "run-tests: ${label}: $((SECONDS - start)) s"
}

timed "install-deps" bash tools/install-deps.sh

timed "format (clang-format-15 --dry-run)" bash -c \
  "git ls-files -z '*.cc' '*.h' | xargs -0 clang-format-15 --dry-run --Werror"

# ccache (installed by install-deps) keeps compiled objects between runs on one machine; with the
# checkout as its base directory, another clone of the same sources hits the same entries.
export CCACHE_BASEDIR="$PWD"
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

timed "configure build/" cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCL2VK_WERROR=ON \
  -DCL2VK_SANITIZE=address,undefined -DCL2VK_TEST_VALIDATION=ON "${launcher[@]}"
timed "build build/ (ASan+UBSan)" cmake --build build
timed "ctest build/ (ASan+UBSan, validation)" ctest --test-dir build --output-on-failure -j"$jobs"

timed "fuzz (seeds and their mutants, build-fuzz/)" bash tools/fuzz/run-fuzz.sh --ci

echo "run-tests: all passed in $SECONDS s"
