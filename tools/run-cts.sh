#!/usr/bin/env bash
# Runs the Khronos OpenCL conformance tests (KhronosGroup/OpenCL-CTS) against cl2vk's ICD on one
# Vulkan device, one log per suite and a summary table (docs/CONFORMANCE.md says how the results
# there were made).
#
#   bash tools/run-cts.sh --cts BUILD [--icd LIB] [--device lavapipe|swiftshader|gpu] [--mode MODE]
#                         [--out DIR] [--timeout S] [--jobs N] [SUITE[:ARGS] ...]
#
#   --cts BUILD    a build tree of the CTS (its binaries under BUILD/test_conformance/). The CTS is
#                  not part of cl2vk and is not downloaded here: build it as its README says, against
#                  any ICD loader (libOpenCL.so from ocl-icd) and the Khronos OpenCL and SPIR-V headers.
#   --icd LIB      cl2vk's ICD (default: build/src/libcl2vk_icd.so of this checkout). The tests see
#                  only this ICD: OCL_ICD_VENDORS names a folder holding only its .icd file.
#   --device D     lavapipe (default), swiftshader, or gpu (whatever Vulkan driver the loader finds
#                  first besides the CPU ones, e.g. NVIDIA's).
#   --mode MODE    quick (default on the CPU drivers: the CTS's own reduced mode, "wimpy"
#                  (CL_WIMPY_MODE), which the suites that have one honour, and thread_dimensions'
#                  quick_* tests) or full (every suite in its full mode; hours for math_brute_force and
#                  conversions on a CPU).
#   --out DIR      where logs and the summary go (default results/cts-<device>-<mode>).
#   --timeout S    a suite's wall-clock limit in seconds (default 3600); a suite past it is reported
#                  as "timeout" with the tests it finished.
#   --jobs N       suites run N at a time (default 1); each suite is one process, so on a machine
#                  with many cores and one GPU this shortens the whole run several times.
#   SUITE[:ARGS]   suites to run (default: every suite below); ARGS replaces the suite's arguments,
#                  e.g. subgroups:"subgroup_functions_ballot". SUITE@PART:ARGS runs one part of a
#                  suite, logged and summarized as SUITE@PART, so that a long suite's tests can run
#                  in several processes at once (basic@1:"astype sizeof" basic@2:"vector_swizzle").
#
# Each suite writes BUILD's JSON results (CL_CONFORMANCE_RESULTS_FILENAME) next to its log; the
# summary counts each suite's tests as passed, failed and skipped from that file, so a suite that
# crashes part-way shows what it finished and is marked "crashed" with its exit status.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

cts="" icd="$top/build/src/libcl2vk_icd.so" device=lavapipe mode="" out="" timeout=3600 jobs=1
selected=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cts) cts=$2; shift 2 ;;
    --icd) icd=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-cts: unknown option $1 (--help lists them)" >&2; exit 2 ;;
    *) selected+=("$1"); shift ;;
  esac
done
[ -n "$cts" ] || { echo "run-cts: --cts BUILD (a build tree of the OpenCL-CTS) is required" >&2; exit 2; }
[ -d "$cts/test_conformance" ] || { echo "run-cts: $cts/test_conformance is not there: is $cts a CTS build tree?" >&2; exit 2; }
[ -f "$icd" ] || { echo "run-cts: the ICD $icd is not there (build cl2vk first, or pass --icd)" >&2; exit 2; }
icd=$(cd "$(dirname "$icd")" && pwd)/$(basename "$icd")
case "$device" in
  lavapipe|swiftshader) mode=${mode:-quick} ;;
  gpu) mode=${mode:-full} ;;
  *) echo "run-cts: --device must be lavapipe, swiftshader or gpu" >&2; exit 2 ;;
esac
case "$mode" in
  quick) export CL_WIMPY_MODE=1 ;;
  full) unset CL_WIMPY_MODE ;;
  *) echo "run-cts: --mode must be quick or full" >&2; exit 2 ;;
esac
out=${out:-$top/results/cts-$device-$mode}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The suites, as "name|binary (under test_conformance/)|arguments in full mode|arguments in quick
# mode". Quick mode uses the CTS's own reduced modes only; a suite without one runs in full. Suites for features cl2vk does
# not offer (pipes, device-side enqueue, SVM, GL/D3D sharing, device
# partitioning) are run too: the CTS skips them itself when the device reports the feature absent,
# which is what this run checks.
suites=(
  "computeinfo|computeinfo/test_computeinfo||"
  "api|api/test_api||"
  "basic|basic/test_basic||"
  "buffers|buffers/test_buffers||"
  "compiler|compiler/test_compiler||"
  "commonfns|commonfns/test_commonfns||"
  "geometrics|geometrics/test_geometrics||"
  "relationals|relationals/test_relationals||"
  "thread_dimensions|thread_dimensions/test_thread_dimensions|full*|quick*"
  "multiple_device_context|multiple_device_context/test_multiples||"
  "atomics|atomics/test_atomics||"
  "profiling|profiling/test_profiling||"
  "events|events/test_events||"
  "allocations|allocations/test_allocations|single 5 all|single 5 all"
  "vectors|vectors/test_vectors||"
  "printf|printf/test_printf||"
  "device_partition|device_partition/test_device_partition||"
  "mem_host_flags|mem_host_flags/test_mem_host_flags||"
  "select|select/test_select||"
  "conversions|conversions/test_conversions||"
  "contractions|contractions/test_contractions||"
  "math_brute_force|math_brute_force/test_bruteforce||"
  "integer_ops|integer_ops/test_integer_ops||"
  "half|half/test_half||"
  "c11_atomics|c11_atomics/test_c11_atomics||"
  "device_execution|device_execution/test_device_execution||"
  "generic_address_space|generic_address_space/test_generic_address_space||"
  "non_uniform_work_group|non_uniform_work_group/test_non_uniform_work_group||"
  "pipes|pipes/test_pipes||"
  "svm|SVM/test_svm||"
  "workgroups|workgroups/test_workgroups||"
  "device_timer|device_timer/test_device_timer||"
  "spirv_new|spirv_new/test_spirv_new||"
  "subgroups|subgroups/test_subgroups||"
  "images_get_info|images/clGetInfo/test_cl_get_info||"
  "images_kernel_methods|images/kernel_image_methods/test_kernel_image_methods||"
  "images_streams|images/kernel_read_write/test_image_streams|CL_FILTER_NEAREST|CL_FILTER_NEAREST"
  "images_copy|images/clCopyImage/test_cl_copy_images||"
  "images_read_write|images/clReadWriteImage/test_cl_read_write_images||"
  "images_fill|images/clFillImage/test_cl_fill_images||"
  "images_samplerless|images/samplerlessReads/test_samplerless_reads||"
  "cxx_for_opencl|extensions/cl_ext_cxx_for_opencl/test_cl_ext_cxx_for_opencl||"
  "semaphore|extensions/cl_khr_semaphore/test_cl_khr_semaphore||"
  "command_buffer|extensions/cl_khr_command_buffer/test_cl_khr_command_buffer||"
  "kernel_clock|extensions/cl_khr_kernel_clock/test_cl_khr_kernel_clock||"
)

# The ICD loader sees cl2vk alone.
vendors="$out/vendors"
mkdir -p "$vendors"
rm -f "$vendors"/*.icd
echo "$icd" > "$vendors/cl2vk.icd"
export OCL_ICD_VENDORS="$vendors"
case "$device" in
  lavapipe) export VK_DRIVER_FILES=${LAVAPIPE_ICD:-/usr/share/vulkan/icd.d/lvp_icd.x86_64.json} ;;
  swiftshader) export VK_DRIVER_FILES=${SWIFTSHADER_ICD:-/usr/local/share/cl2vk/swiftshader/vk_swiftshader_icd.json} ;;
  gpu) unset VK_DRIVER_FILES ;;
esac
if [ -n "${VK_DRIVER_FILES:-}" ] && [ ! -f "$VK_DRIVER_FILES" ]; then
  echo "run-cts: the Vulkan driver manifest $VK_DRIVER_FILES is not there" >&2; exit 2
fi

# Counts "pass", "fail" and "skip" in a suite's JSON results.
count_results() {
  local json=$1 result=$2
  [ -f "$json" ] || { echo 0; return; }
  grep -c "\": \"$result\"" "$json"
}

summary="$out/summary.md"
# Each suite writes its row of the summary to its own file (suites may run at once); the summary
# puts them in the order of the list above.
rows=()

run_suite() {
  local name=$1 binary=$2 arguments=$3
  local path="$cts/test_conformance/$binary"
  local log="$out/$name.log" json="$out/$name.json" row="$out/$name.row"
  rm -f "$json"
  if [ ! -x "$path" ]; then
    echo "| $name | | | | not built | | \`$binary\` |" > "$row"
    echo "run-cts: $name: $path was not built; skipped"
    return
  fi
  local start=$SECONDS status
  # Each suite from its own folder: several read inputs relative to the working directory.
  (cd "$(dirname "$path")" &&
    CL_CONFORMANCE_RESULTS_FILENAME="$json" timeout --signal=KILL "$timeout" \
      "./$(basename "$path")" $arguments) > "$log" 2>&1
  status=$?
  local elapsed=$((SECONDS - start))
  local passed failed skipped result
  passed=$(count_results "$json" pass)
  failed=$(count_results "$json" fail)
  skipped=$(count_results "$json" skip)
  if [ "$status" -eq 137 ]; then
    result=timeout
  elif [ ! -f "$json" ]; then
    # No results file: the suite stopped before running a test (a device it does not accept, a
    # crash at start-up); its log says why.
    result="exit $status"
  elif [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    result="crashed ($status)"
  elif [ "$failed" -gt 0 ]; then
    result=FAILED
  elif [ "$passed" -eq 0 ] && [ "$skipped" -gt 0 ]; then
    result=skipped
  else
    result=passed
  fi
  echo "| $name | $passed | $failed | $skipped | $result | $elapsed | \`$binary $arguments\` |" > "$row"
  echo "run-cts: $name: $result ($passed passed, $failed failed, $skipped skipped) in $elapsed s"
}

for entry in "${suites[@]}"; do
  IFS='|' read -r name binary full quick <<< "$entry"
  arguments=$full
  [ "$mode" = quick ] && arguments=$quick
  # Each run of the suite: its label (NAME, or NAME@PART for one of several parts) and arguments.
  runs=()
  if [ ${#selected[@]} -eq 0 ]; then
    runs=("$name|$arguments")
  else
    for choice in "${selected[@]}"; do
      label=${choice%%:*}
      [ "${label%%@*}" = "$name" ] || continue
      if [[ "$choice" == *:* ]]; then runs+=("$label|${choice#*:}"); else runs+=("$label|$arguments"); fi
    done
  fi
  for run in "${runs[@]}"; do
    label=${run%%|*}
    rows+=("$out/$label.row")
    rm -f "$out/$label.row"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_suite "$label" "$binary" "${run#*|}" &
  done
done
wait

{
  echo "| suite | passed | failed | skipped | result | time (s) | command |"
  echo "|---|---|---|---|---|---|---|"
  for row in "${rows[@]}"; do cat "$row" 2>/dev/null && rm -f "$row"; done
} > "$summary"

echo "run-cts: summary in $summary"
cat "$summary"
