#!/usr/bin/env bash
# Runs cl2vk's test suites and selected benchmarks on the GPU machine (no package access, no Vulkan
# loader, an upload limit too small for clang), from the repository root with $OUT set:
#
#   tools/device/run-gpu-tests.sh STEP...
#
# Steps: icd (the whole icd_tests suite through the ICD), icd:FILTER (the icd_tests that the gtest
# filter FILTER selects), kernels (the whole kernel_tests suite),
# kernels:FILTER (the kernel_tests that the gtest filter FILTER selects),
# icd-no-int64 (its sub-group and
# collective tests with 64-bit integers emulated), kernels-no-int64 and kernels-no-8-16
# (kernel_tests' emulation, collective and integer tests with CL2VK_DEVICE_LACKS naming the
# features), ffmpeg (ffmpeg's OpenCL filters against its CPU ones, through cl2vk and NVIDIA's
# OpenCL), hashcat:MODES (hashcat -b of each mode, comma-separated, through cl2vk and NVIDIA's
# OpenCL), bench:ARGS (cl2vk-bench with ARGS,
# "+" for spaces; NVIDIA's OpenCL as the native platform), run:PROGRAM (a carried program,
# .device/PROGRAM with "+" for spaces, in this environment: both cl2vk and NVIDIA's OpenCL are
# platforms; for probes), cts:SUITES and cts-native:SUITES (the
# OpenCL-CTS suites SUITES, comma-separated, each SUITE[:ARGS] with "+" for spaces in ARGS, through tools/run-cts.sh in full mode ($CTS_MODE=quick: the CTS's reduced mode), $CTS_JOBS (8) at a time,
# against cl2vk or against NVIDIA's OpenCL; $CTS_TIMEOUT seconds a suite, default 420; the logs come
# back packed in $OUT/<step>.tar.xz, the table in $OUT/<step>-summary.md). Each step's output goes
# to $OUT/<step>.log. Carried (git-ignored), made on the development machine:
#   .device/debs/   the Vulkan loader, glvnd and X libraries, ocl-icd (.deb files)
#   .device/gpu/    stripped kernel_tests, the built corpus (build-rel/spirv), debs/ with MPFR and GMP
#   .device/icd/    stripped icd_tests, libcl2vk_icd.so and cl2vk-opt
#   .device/bench/  stripped cl2vk-bench and the compiled GLSL baselines (shaders/)
#   .device/cl/     clang-15, llvm-spirv-15 and their libraries (.deb files) and clang's OpenCL
#                   headers (clang-opencl-headers.tar.xz), or else
#   .device/tc/cache  the OpenCL C compilations those programs make, recorded by
#                   tools/device/toolchain-replay.sh (CL2VK_TOOLCHAIN_RECORD=1) on a machine whose
#                   device offers what the GPU offers (the build options name the extensions);
#                   a compilation that was not recorded fails its test, saying so
#   .device/cl/stubs/ optional: libraries standing in for ones left out of .device/cl to fit the
#                   carry (ICU and z3, which clang's libraries link but compiling OpenCL C never calls)
#   .device/lvp/    Mesa's lavapipe (libvulkan_lvp.so, the libraries it needs besides LLVM, and a
#                   manifest naming it by a relative path), for lavapipe-kernels:FILTER and
#                   lavapipe-icd:FILTER (kernel_tests and icd_tests on this machine's CPU)
#   .device/test_conformance/  a CTS build's suites (binaries and the files they read), for cts:
#   .device/ffmpeg/  ffmpeg and its libraries, or stand-ins for them (tools/device/pack-ffmpeg.py),
#                   for ffmpeg
#   .device/*.tar.xz  any of the folders above, packed
set -u
# Programs may also travel packed (xz makes the stripped binaries a third of their size).
for archive in .device/*.tar.xz; do [ -f "$archive" ] && tar xJf "$archive" -C .device; done
for f in .device/debs/*.deb .device/gpu/debs/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export CL2VK_CORPUS_DIR=$PWD/.device/gpu/spirv
for list in "$CL2VK_CORPUS_DIR"/*.txt; do sed -i "s#/work/main/build-rel/spirv#$CL2VK_CORPUS_DIR#" "$list"; done
mkdir -p /tmp/toolchain /tmp/vendors
if compgen -G ".device/cl/clang-15_*.deb" > /dev/null; then
  # clang itself, when it fits the upload beside the rest (tools/bench/device-env.sh does the same).
  for f in .device/cl/*.deb; do dpkg -x "$f" /tmp/cl; done
  tar xJf .device/cl/clang-opencl-headers.tar.xz -C /tmp/cl
  export LD_LIBRARY_PATH=/tmp/cl/usr/lib/x86_64-linux-gnu
  [ -d .device/cl/stubs ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.device/cl/stubs
  export CL2VK_CLANG=/tmp/cl/usr/bin/clang-15 CL2VK_LLVM_SPIRV=/tmp/cl/usr/bin/llvm-spirv-15
else
  ln -sf "$PWD/tools/device/toolchain-replay.sh" /tmp/toolchain/clang-15
  ln -sf "$PWD/tools/device/toolchain-replay.sh" /tmp/toolchain/llvm-spirv-15
  export CL2VK_CLANG=/tmp/toolchain/clang-15 CL2VK_LLVM_SPIRV=/tmp/toolchain/llvm-spirv-15
  export CL2VK_TOOLCHAIN_CACHE=$PWD/.device/tc/cache
fi
echo "$PWD/.device/icd/libcl2vk_icd.so" > /tmp/vendors/cl2vk.icd
# The command the translation-dump tests repeat the runtime's translations with.
[ -x .device/icd/cl2vk-opt ] && export CL2VK_TEST_OPT=$PWD/.device/icd/cl2vk-opt
echo libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
export OCL_ICD_VENDORS=/tmp/vendors
# CUDA's own libOpenCL.so.1 comes first on the library path there and knows no other vendors.
export LD_PRELOAD=/lib/x86_64-linux-gnu/libOpenCL.so.1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1

status=0
for step in "$@"; do
  log=$OUT/${step%%:*}.log
  case $step in
    icd) .device/icd/icd_tests > "$log" 2>&1 ;;
    icd:*) .device/icd/icd_tests --gtest_filter="${step#icd:}" > "$log" 2>&1 ;;
    kernels) .device/gpu/kernel_tests > "$log" 2>&1 ;;
    kernels:*) .device/gpu/kernel_tests --gtest_filter="${step#kernels:}" > "$log" 2>&1 ;;
    lavapipe-kernels:* | lavapipe-icd:*)
      # Mesa's lavapipe on this machine's CPU, a second CPU beside the development machine's
      # (llvmpipe's code depends on the CPU's vector features): the carried driver and the LLVM
      # of the carried clang packages.
      suite=kernel_tests
      [ "${step%%:*}" = lavapipe-icd ] && suite=icd_tests
      binary=.device/gpu/kernel_tests
      [ "$suite" = icd_tests ] && binary=.device/icd/icd_tests
      lscpu > "$OUT/cpu.txt" 2>&1
      VK_DRIVER_FILES=$PWD/.device/lvp/lvp_icd.json LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$PWD/.device/lvp \
        "$binary" --gtest_filter="${step#*:}" > "$log" 2>&1 ;;
    icd-no-int64)
      CL2VK_DEVICE_LACKS=int64 .device/icd/icd_tests --gtest_filter='SubgroupExtensions.*:*Collective*' > "$log" 2>&1 ;;
    kernels-no-int64)
      CL2VK_DEVICE_LACKS=int64 .device/gpu/kernel_tests \
        --gtest_filter='Builds/Int64Emulation.*:Builds/Collectives.*:Builds/BasicKernels.*:Builds/IntegerTypes.*' > "$log" 2>&1 ;;
    kernels-no-8-16)
      CL2VK_DEVICE_LACKS=int8,int16,storage8,storage16 .device/gpu/kernel_tests \
        --gtest_filter='Builds/NarrowIntegers.*:Builds/Collectives.*:Builds/IntegerTypes.*' > "$log" 2>&1 ;;
    bench:*)
      args=${step#bench:}
      log=$OUT/bench-$(echo "$args" | tr -c 'a-zA-Z0-9\n' '_').log
      # shellcheck disable=SC2086 # the arguments are split at the "+" on purpose
      .device/bench/cl2vk-bench --shader-dir .device/bench/shaders --corpus "$CL2VK_CORPUS_DIR/corpus.txt" \
        --native-platform "NVIDIA CUDA" ${args//+/ } > "$log" 2>&1 ;;
    run:*)
      program=${step#run:}
      log=$OUT/run-$(echo "${program%%+*}" | tr -c 'a-zA-Z0-9\n' '_').log
      # shellcheck disable=SC2086 # the arguments are split at the "+" on purpose
      .device/${program//+/ } > "$log" 2>&1 ;;
    ffmpeg)
      # ffmpeg's OpenCL filters against its CPU filters (tests/clients/ffmpeg/compare_filters.py),
      # through cl2vk and through NVIDIA's OpenCL, with ffmpeg from .device/ffmpeg/.
      code=0
      for impl in cl2vk nvidia; do
        mkdir -p "/tmp/vendors-$impl" && cp "/tmp/vendors/$impl.icd" "/tmp/vendors-$impl/"
        echo "== $impl"
        PATH=$PWD/.device/ffmpeg/bin:$PATH LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:$PWD/.device/ffmpeg/lib \
          OCL_ICD_VENDORS=/tmp/vendors-$impl python3 tests/clients/ffmpeg/compare_filters.py || code=1
      done > "$log" 2>&1
      (exit $code) ;;
    hashcat:*)
      # hashcat's benchmark (hashcat -b) of the modes MODES (comma-separated), through cl2vk and
      # through NVIDIA's OpenCL, each in its own process with its own kernel cache; hashcat
      # self-tests each mode's kernels before timing them. Debian's hashcat from .device/debs/.
      # $HASHCAT_IMPLS (default "cl2vk nvidia") chooses the sides, $HASHCAT_TIMEOUT (300) bounds
      # each run: building a mode's kernels takes minutes where clang runs on one core.
      code=0
      IFS=',' read -ra modes <<< "${step#hashcat:}"
      for impl in ${HASHCAT_IMPLS:-cl2vk nvidia}; do
        mkdir -p "/tmp/vendors-$impl" "/tmp/hashcat-$impl" && cp "/tmp/vendors/$impl.icd" "/tmp/vendors-$impl/"
        for mode in "${modes[@]}"; do
          echo "== $impl -m $mode"
          HOME=/tmp/hashcat-$impl OCL_ICD_VENDORS=/tmp/vendors-$impl timeout "${HASHCAT_TIMEOUT:-300}" \
            hashcat -b -m "$mode" --force --backend-ignore-cuda --machine-readable || code=1
        done
      done > "$log" 2>&1
      (exit $code) ;;
    cts:* | cts-native:*)
      name=${step%%:*}
      icd=$PWD/.device/icd/libcl2vk_icd.so
      [ "$name" = cts-native ] && icd=$(ldconfig -p | awk '/libnvidia-opencl\.so\.1 /{print $NF; exit}')
      # One argument per suite; "+" stands for a space among a suite's arguments.
      IFS=',' read -ra entries <<< "${step#*:}"
      suites=()
      for entry in "${entries[@]}"; do suites+=("${entry//+/ }"); done
      bash tools/run-cts.sh --cts .device --icd "$icd" --device gpu --mode "${CTS_MODE:-full}" --jobs "${CTS_JOBS:-8}" \
        --timeout "${CTS_TIMEOUT:-420}" --out "/tmp/$name" "${suites[@]}" > "$log" 2>&1
      cp "/tmp/$name/summary.md" "$OUT/$name-summary.md"
      tar cJf "$OUT/$name.tar.xz" -C /tmp "$name" ;;
    *) echo "run-gpu-tests: unknown step $step" >&2; exit 2 ;;
  esac
  code=$?
  echo "$step: exit $code ($(grep -E '^\[  (PASSED|FAILED)  \]|tests ran' "$log" | tr '\n' ' '))"
  [ "$code" = 0 ] || status=1
done
exit $status
