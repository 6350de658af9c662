#!/usr/bin/env bash
# The runtime's multi-threaded tests under ThreadSanitizer: builds libcl2vk_icd.so and icd_tests
# with -DCL2VK_SANITIZE=thread (build-tsan/) and runs the tests that use the runtime from several
# threads or hand work between the application's and the queues' threads (stress, events, queues,
# object lifetimes, pipelines shared by kernels of one program, recycled buffer memory, batched
# launches, launches gated on user events and other queues, queues running at once, transfers and
# maps with the threads that copy host memory). Any report fails the test. Not part of
# tools/run-tests.sh, which would then pass CI's 20-minute budget; docs/RELIABILITY.md gives the
# results. Extra arguments go to ctest
# (for example -R 'Icd' to run every ICD test under ThreadSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
# The validation layer is left off: tools/run-tests.sh runs these tests under it, and only cl2vk's
# own threads are ThreadSanitizer's concern.
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCL2VK_WERROR=ON \
  -DCL2VK_SANITIZE=thread -DCL2VK_TEST_VALIDATION=OFF
cmake --build build-tsan --target icd_tests
filter='^(IcdStress|IcdEvent|IcdQueue|IcdLifetime|IcdPipelineSharing|IcdMemoryRecycling|IcdBatching|IcdGatedLaunches|IcdBuffer|ConcurrentQueues)\.'
if [ $# -gt 0 ]; then filter_args=("$@"); else filter_args=(-R "$filter"); fi
ctest --test-dir build-tsan --output-on-failure -j"$(nproc)" "${filter_args[@]}"
