#!/usr/bin/env bash
# Runs the benchmarks on a GPU machine without package access, as docs/PERFORMANCE.md's H200
# numbers were made: copy this script to .device/bench/run.sh next to a stripped cl2vk-bench,
# libcl2vk_icd.so and the bench shaders (.device/bench/shaders), the built corpus in .device/spirv,
# the Vulkan loader's (and libglvnd's) .deb files in .device/debs/ and ocl-icd, clang-15,
# llvm-spirv-15 (with their libraries) and clinfo .deb files in .device/cl/, then run it from the
# repository root with $OUT set to where the results go. It unpacks the packages, registers cl2vk's
# and NVIDIA's ICDs, builds CUB's baseline with nvcc and runs cl2vk-bench with the arguments given.
set -u
source tools/bench/device-env.sh .device/bench
sed -i "s|/work/main/build/spirv|$PWD/.device/spirv|" .device/spirv/corpus.txt
/tmp/cl/usr/bin/clinfo > "$OUT/clinfo.txt" 2>&1
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
nvcc -O3 -std=c++17 -arch=native -o /tmp/cub_bench tools/bench/cub_bench.cu && /tmp/cub_bench > "$OUT/cub.jsonl" 2> "$OUT/cub.err"
.device/bench/cl2vk-bench --shader-dir .device/bench/shaders --corpus .device/spirv/corpus.txt \
  --native-platform "NVIDIA CUDA" --merge "$OUT/cub.jsonl" --json "$OUT/bench.json" "$@" > "$OUT/bench.md" 2> "$OUT/bench.err"
echo "cl2vk-bench exit $?"
tail -40 "$OUT/bench.md"; tail -20 "$OUT/bench.err"
