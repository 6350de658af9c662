#!/usr/bin/env bash
# Reproduces every benchmark in one command: builds cl2vk-bench and what it needs (Release, in
# build-bench/), runs it on the default device through the build tree's ICD and writes
# results/bench-<date>.json next to the Markdown tables on stdout.
# - With an NVIDIA OpenCL platform installed, the same kernels also run on it (--native-platform).
# - With nvcc, tools/bench/cub_bench.cu (when present) is built and run, and its JSON lines are
#   merged into the tables (CUB_BENCH_ARGS passes it arguments).
# - Without a GPU (lavapipe), N defaults to 2^22: lavapipe moves about 1 GB/s.
# Arguments are passed to cl2vk-bench after the defaults, so they override them:
#   bash tools/run-benchmarks.sh --quick
#   bash tools/run-benchmarks.sh --n 2^24 --only reduce
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${CL2VK_BENCH_BUILD_DIR:-$root/build-bench}
results=$root/results
stamp=$(date +%Y%m%d-%H%M%S)
mkdir -p "$results"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target cl2vk-bench

# The build tree's cl2vk.icd plus the system's ICDs (for the native platform), in one folder.
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
cp "$build/icd/cl2vk.icd" "$vendors/"
native_args=()
for icd in /etc/OpenCL/vendors/*.icd; do
  [ -e "$icd" ] || continue
  [ "$(basename "$icd")" = cl2vk.icd ] && continue
  cp "$icd" "$vendors/"
  if grep -qi nvidia "$icd"; then native_args=(--native-platform "NVIDIA CUDA"); fi
done
[ ${#native_args[@]} -gt 0 ] && echo "run-benchmarks: NVIDIA OpenCL found, comparing with it" >&2

# Lavapipe (no GPU): a smaller default N.
size_args=()
case " $* " in *" --n "* | *" --quick "*) ;; *)
if ! vulkaninfo --summary 2>/dev/null | grep -q "PHYSICAL_DEVICE_TYPE_\(DISCRETE\|INTEGRATED\)_GPU"; then
  echo "run-benchmarks: no Vulkan GPU, running on lavapipe with --n 2^22" >&2
  size_args=(--n 2^22)
fi ;;
esac

merge_args=()
if command -v nvcc >/dev/null; then
  if [ -f "$root/tools/bench/cub_bench.cu" ]; then
    echo "run-benchmarks: building and running tools/bench/cub_bench.cu" >&2
    # A CUB failure (no CUDA driver, no GPU) costs the CUB column, not the run.
    # shellcheck disable=SC2086  # CUB_BENCH_ARGS is a list of arguments.
    if nvcc -O3 -std=c++17 -arch=native -o "$build/cub_bench" "$root/tools/bench/cub_bench.cu" &&
       "$build/cub_bench" ${CUB_BENCH_ARGS:-} >"$results/cub-$stamp.jsonl"; then
      merge_args=(--merge "$results/cub-$stamp.jsonl")
    else
      echo "run-benchmarks: cub_bench failed; no CUB column" >&2
      rm -f "$results/cub-$stamp.jsonl"
    fi
  else
    echo "run-benchmarks: nvcc found but tools/bench/cub_bench.cu does not exist yet; no CUB column" >&2
  fi
else
  echo "run-benchmarks: no nvcc; no CUB column" >&2
fi

OCL_ICD_VENDORS=$vendors "$build/tools/bench/cl2vk-bench" \
  "${size_args[@]}" "${native_args[@]}" "${merge_args[@]}" \
  --json "$results/bench-$stamp.json" "$@"
echo "run-benchmarks: measurements in $results/bench-$stamp.json" >&2
