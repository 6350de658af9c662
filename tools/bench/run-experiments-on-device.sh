#!/usr/bin/env bash
# Runs the experiments of docs/PERFORMANCE.md ("Why Vulkan trailed CUDA at work-group 256") on the
# device machine, laid out as for run-on-device.sh: a stripped cl2vk-bench, libcl2vk_icd.so and the
# bench shaders in .device/bench, tools/bench/cub_bench.cu copied next to them (this tree's, with
# --shared-sweep), the Vulkan loader's .deb files in .device/ and ocl-icd, clang-15 and llvm-spirv-15
# in .device/cl/. Run from the repository root with $OUT set; each argument is a step, in order:
#   clocks            log SM and memory clocks (nvidia-smi dmon) to $OUT/clocks.txt while the rest runs
#   sweep             cub_bench --shared-sweep: CUDA's 4-byte copy against resident blocks
#   experiment        cl2vk-bench --experiment dispatch, with a CUDA context held by another process
#   bench-256-QUEUE   the benchmarks at work-group 256 with CL2VK_QUEUE=QUEUE (graphics, compute)
set -u
D=.device/bench
for f in .device/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /tmp/cl && for f in .device/cl/*.deb; do dpkg -x "$f" /tmp/cl; done
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/tmp/cl/usr/lib/x86_64-linux-gnu
export CL2VK_CLANG=/tmp/cl/usr/bin/clang-15 CL2VK_LLVM_SPIRV=/tmp/cl/usr/bin/llvm-spirv-15
mkdir -p /tmp/vendors
echo "$PWD/$D/libcl2vk_icd.so" > /tmp/vendors/cl2vk.icd
echo libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
export OCL_ICD_VENDORS=/tmp/vendors
bench=("$D/cl2vk-bench" --shader-dir "$D/shaders" --corpus .device/spirv/corpus.txt)
for step in "$@"; do
  echo "=== $step $(date +%T)"
  case $step in
    clocks) nvidia-smi dmon -s pc -o T > "$OUT/clocks.txt" 2>&1 & ;;
    sweep)
      nvcc -O3 -std=c++17 -arch=native -o /tmp/cub_bench "$D/cub_bench.cu" &&
        /tmp/cub_bench --shared-sweep | tee "$OUT/cuda-sweep.jsonl" ;;
    experiment)
      # A Vulkan-only process leaves the SM clock idle; a CUDA context elsewhere raises it.
      python3 -c 'import torch, time; torch.zeros(1, device="cuda"); time.sleep(600)' &
      cuda=$!
      sleep 12
      "${bench[@]}" --experiment dispatch > "$OUT/experiment.md" 2> "$OUT/experiment.err"
      echo "exit $?"; cat "$OUT/experiment.md"
      kill "$cuda" ;;
    bench-256-*)
      CL2VK_QUEUE=${step#bench-256-} "${bench[@]}" --native-platform "NVIDIA CUDA" --work-groups 256 \
        --no-translation --no-launch-overhead --json "$OUT/$step.json" > "$OUT/$step.md" 2> "$OUT/$step.err"
      echo "exit $?"; grep -E "^\| " "$OUT/$step.md" ;;
    *) echo "unknown step $step" ;;
  esac
done
