#!/usr/bin/env bash
# Runs the experiments of docs/PERFORMANCE.md ("Why Vulkan trailed CUDA at work-group 256") on the
# device machine, laid out as for run-on-device.sh: a stripped cl2vk-bench, libcl2vk_icd.so and the
# bench shaders in .device/bench, tools/bench/cub_bench.cu copied next to them (this tree's, with
# --shared-sweep), the Vulkan loader's (and libglvnd's) .deb files in .device/debs/ and ocl-icd,
# clang-15 and llvm-spirv-15 in .device/cl/. Run from the repository root with $OUT set; each
# argument is a step, in order:
#   clocks            log SM and memory clocks (nvidia-smi dmon) to $OUT/clocks.txt while the rest runs
#   sweep             cub_bench --shared-sweep: CUDA's 4-byte copy against resident blocks
#   experiment        cl2vk-bench --experiment dispatch, with a CUDA context held by another process
#   bench-256-QUEUE   the benchmarks at work-group 256 with CL2VK_QUEUE=QUEUE (graphics, compute)
#   resources         start building cub_bench in the background, with ptxas's register and shared
#                     memory report ($OUT/cub-ptxas.txt) and cuobjdump's ($OUT/cub-resources.txt)
#   cub               (after resources) cub_bench's measurements to $OUT/cub.jsonl
#   collectives-NAME  the benchmarks at work-groups 256 and 1024 through the ICD in $D/NAME/ (say, a
#                     build before and after a change), CUB's numbers merged when cub ran, with the
#                     driver's statistics of every translated pipeline (CL2VK_PIPELINE_STATISTICS=1)
#                     in $OUT/collectives-NAME.err
# A device call returns at most 8 files from $OUT: for several steps, tar what they write there.
# Environment: CL2VK_DEVICE_DIR replaces .device/bench; ONLY (text) limits experiment and collectives
# to the benchmarks whose "name type" contains it; WORK_GROUPS (default 256,1024) are collectives'
# work-group sizes.
set -u
D=${CL2VK_DEVICE_DIR:-.device/bench}
only=(${ONLY:+--only "$ONLY"})
source tools/bench/device-env.sh "$D"
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
      "${bench[@]}" --experiment dispatch "${only[@]}" > "$OUT/experiment.md" 2> "$OUT/experiment.err"
      echo "exit $?"; cat "$OUT/experiment.md"
      kill "$cuda" ;;
    bench-256-*)
      CL2VK_QUEUE=${step#bench-256-} "${bench[@]}" --native-platform "NVIDIA CUDA" --work-groups 256 \
        --no-translation --no-launch-overhead --json "$OUT/$step.json" > "$OUT/$step.md" 2> "$OUT/$step.err"
      echo "exit $?"; grep -E "^\| " "$OUT/$step.md" ;;
    resources)
      (cd /tmp && nvcc -O3 -std=c++17 -arch=native -Xptxas -v -o /tmp/cub_bench "$OLDPWD/tools/bench/cub_bench.cu" \
         > "$OUT/cub-ptxas.txt" 2>&1 && cuobjdump --dump-resource-usage /tmp/cub_bench > "$OUT/cub-resources.txt" 2>&1) &
      cub_build=$! ;;
    cub)
      wait "$cub_build"; /tmp/cub_bench > "$OUT/cub.jsonl" 2> "$OUT/cub.err"; echo "exit $?" ;;
    collectives-*)
      icd=${step#collectives-}
      echo "$PWD/$D/$icd/libcl2vk_icd.so" > /tmp/vendors/cl2vk.icd
      merge=(); [ -s "$OUT/cub.jsonl" ] && merge=(--merge "$OUT/cub.jsonl")
      CL2VK_PIPELINE_STATISTICS=1 "${bench[@]}" --native-platform "NVIDIA CUDA" --work-groups "${WORK_GROUPS:-256,1024}" "${only[@]}" \
        "${merge[@]}" --no-translation --no-launch-overhead --json "$OUT/$step.json" > "$OUT/$step.md" 2> "$OUT/$step.err"
      echo "exit $?"; grep -E "^\| " "$OUT/$step.md"; grep "pipeline statistics" "$OUT/$step.err" ;;
    *) echo "unknown step $step" ;;
  esac
done
