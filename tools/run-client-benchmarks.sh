#!/usr/bin/env bash
# Real clients as users run them (issue 17): CLBlast (sgemm, saxpy, sdot), clFFT (1D, 2D),
# pyopencl (a + b*c, sum, cumsum), clpeak's host transfers (issue 27), images (issue 28),
# independent kernels on one, two and out-of-order queues (issue 27) and clpeak itself (its
# bandwidth, compute and launch-latency sections), each benchmark in a process of its own, once per
# OpenCL implementation, in one invocation; every result checked against the CPU (but clpeak's,
# which measure speed only and say so); a Markdown table of
# GB/s or GFLOP/s per implementation and the ratio of the first implementation to each other one.
#
#   tools/run-client-benchmarks.sh [--size tiny|small|full] [--impl NAME=LIBRARY]... [--runs N]
#       [--only REGEX] [--bin DIR] [--out DIR] [--python PYTHON]
#
# --impl NAME=LIBRARY  an OpenCL implementation: its ICD library (a path, or a name the dynamic
#     loader finds, such as libnvidia-opencl.so.1). Each gets an .icd file of its own in a
#     temporary folder, and each process sees only that folder (OCL_ICD_VENDORS), so nothing else
#     needs registering. The first is the one measured (cl2vk); the ratios are it over each other
#     one. Default: cl2vk from build-rel, then PoCL when /etc/OpenCL/vendors/pocl.icd exists, then
#     NVIDIA when libnvidia-opencl.so.1 is loadable.
# --size  tiny: seconds, for the ctest entry; small (default): a few minutes on lavapipe against
#     PoCL; full: the issue's sizes, for a GPU (sgemm 1024^3 and 4096^3, 2^26 floats, FFT 2^20 and
#     2048x2048); gpus: saxpy and SGEMM on one GPU and split over two, and a buffer moved
#     between them (a machine with two GPUs).
# --runs  timed calls per process after one warm-up call (default: tiny 2, small 5, full 20).
# --only  runs the benchmarks whose label ("clblast sgemm 1024", "pyopencl cumsum 67108864", ...)
#     matches the extended regular expression.
# --bin   where cl2vk-client-clblast and cl2vk-client-clfft are (default build-rel's
#     tools/bench/clients; `ninja -C build-rel cl2vk-clients` builds them and the ICD).
# --out   results folder (default results/clients-<date>): table.md, results.jsonl, a log per
#     process, the GEMM parameters, and the GPU clock samples.
# --python  the interpreter with pyopencl and numpy (default Debian's /usr/bin/python3).
# --timeout  seconds one process may take before it is stopped and its cell says so (default 600).
#
# CLBlast's sgemm also runs "with the same parameters": each reference implementation's run writes
# the kernel parameters CLBlast chose for its device (RetrieveParameters), and then the first
# implementation and that reference both run with them (OverrideParameters), so that the ratio
# measures the translation, not CLBlast's tuning database. With nvidia-smi present, the SM and
# memory clocks are sampled every 100 ms during each process and the table gives their median over
# the timed calls. Exit status: 0 when every run was verified, 1 otherwise (the table says which).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size=small
runs=
only=
bin=$root/build-rel/tools/bench/clients
out=$root/results/clients-$(date +%Y%m%d-%H%M%S)
python=/usr/bin/python3
limit=600
impls=()
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=${2:?}; shift 2 ;;
    --impl) impls+=("${2:?}"); shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --only) only=${2:?}; shift 2 ;;
    --bin) bin=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --python) python=${2:?}; shift 2 ;;
    --timeout) limit=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done

# The host transfers clpeak measures, on a buffer of $1 bytes (clpeak: 2 GiB on a GPU).
transfers() {
  local bench
  for bench in write read write-async read-async map-read memcpy-from-map unmap-write memcpy-to-map; do
    echo "transfer $bench $1"
  done
}

# The image benchmarks on a WxH image.
images() {
  local bench
  for bench in copy copy-float conv5x5 bilinear write read; do
    echo "image $bench $1"
  done
}

# clpeak's own sections (its host transfers are the transfer rows above).
clpeak_sections() {
  local bench
  for bench in global-bandwidth compute-sp compute-dp compute-integer kernel-latency; do
    echo "clpeak $bench default"
  done
}

# Two independent kernels of $1 (GROUPSxSTEPS) on one queue, two queues and an out-of-order queue.
concurrency() {
  local bench
  for bench in serial two-queues out-of-order; do
    echo "concurrency $bench $1"
  done
}

# label (client bench shape) per line; the shapes the clients take (--shape).
case "$size" in
  tiny)
    benches="clblast sgemm 64
clblast saxpy 4096
clblast sdot 4096
clfft fft 256
clfft fft 16x16
pyopencl arith 4096
pyopencl sum 4096
pyopencl cumsum 4096
transfer write 1048576
transfer read 1048576
transfer map-read 1048576
transfer unmap-write 1048576
$(images 64x64)
$(concurrency 2x1000)"
    runs=${runs:-2} ;;
  small)
    benches="clblast sgemm 256
clblast sgemm 512
clblast saxpy 4194304
clblast sdot 4194304
clfft fft 65536
clfft fft 256x256
pyopencl arith 4194304
pyopencl sum 4194304
pyopencl cumsum 4194304
$(transfers 67108864)
$(images 1024x1024)
$(concurrency 8x100000)
$(clpeak_sections)"
    runs=${runs:-5} ;;
  full)
    benches="clblast sgemm 1024
clblast sgemm 4096
clblast saxpy 67108864
clblast sdot 67108864
clfft fft 1048576
clfft fft 2048x2048
pyopencl arith 67108864
pyopencl sum 67108864
pyopencl cumsum 67108864
$(transfers 2147483648)
$(images 4096x4096)
$(concurrency 66x400000)
$(clpeak_sections)"
    runs=${runs:-20} ;;
  gpus)
    benches="multigpu saxpy-1gpu 268435456
multigpu saxpy-2gpu 268435456
multigpu sgemm-1gpu 8192
multigpu sgemm-2gpu 8192
multigpu move-2gpu 67108864"
    runs=${runs:-20} ;;
  *) echo "run-client-benchmarks: --size is tiny, small, full or gpus, not '$size'" >&2; exit 2 ;;
esac
if [ -n "$only" ]; then benches=$(grep -E -- "$only" <<<"$benches" || true); fi
[ -n "$benches" ] || { echo "run-client-benchmarks: --only '$only' matches no benchmark" >&2; exit 2; }

if [ ${#impls[@]} -eq 0 ]; then
  impls=("cl2vk=$root/build-rel/src/libcl2vk_icd.so")
  [ -e /etc/OpenCL/vendors/pocl.icd ] && impls+=("pocl=$(cat /etc/OpenCL/vendors/pocl.icd)")
  ldconfig -p 2>/dev/null | grep -q 'libnvidia-opencl\.so\.1 ' && impls+=("nvidia=libnvidia-opencl.so.1")
fi
for client in $(cut -d' ' -f1 <<<"$benches" | sort -u); do
  [ "$client" = pyopencl ] && continue
  if [ "$client" = clpeak ]; then
    command -v clpeak >/dev/null || { echo "run-client-benchmarks: no clpeak (apt-get install clpeak)" >&2; exit 2; }
    continue
  fi
  program=cl2vk-client-$client
  [ -x "$bin/$program" ] || { echo "run-client-benchmarks: no $bin/$program (ninja -C build-rel cl2vk-clients)" >&2; exit 2; }
done

# One vendors folder per implementation, holding its .icd file alone.
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
names=()
for impl in "${impls[@]}"; do
  name=${impl%%=*} library=${impl#*=}
  [ "$name" != "$impl" ] && [ -n "$name" ] && [ -n "$library" ] || { echo "run-client-benchmarks: --impl NAME=LIBRARY, not '$impl'" >&2; exit 2; }
  mkdir -p "$vendors/$name"
  echo "$library" >"$vendors/$name/$name.icd"
  names+=("$name")
done
subject=${names[0]}
references=("${names[@]:1}")
# The GEMM parameters both sides run with: each reference's, or the subject's own when it runs alone.
param_sources=("${references[@]}")
[ ${#param_sources[@]} -gt 0 ] || param_sources=("$subject")

mkdir -p "$out/logs" "$out/params" "$out/clocks"
manifest=$out/runs.tsv
: >"$manifest"
clocks=0
command -v nvidia-smi >/dev/null && clocks=1

# In a sanitized build (CL2VK_TEST_PRELOAD names the sanitizer's run-time library) python, which is
# not sanitized, must load it before libcl2vk_icd.so; leaks inside CLBlast, clFFT and pyopencl are
# theirs, so leak checking is off for these processes, and so is the new/delete size check, which
# clFFT 2.12's clfftDestroyPlan fails on its own (FFTRepo::deletePlan frees an action through a
# base pointer with the wrong size).
python_env=()
if [ -n "${CL2VK_TEST_PRELOAD:-}" ]; then
  python_env=("LD_PRELOAD=$CL2VK_TEST_PRELOAD libstdc++.so.6")
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:new_delete_type_mismatch=0"
fi

# run NAME VARIANT CLIENT BENCH SHAPE [extra client arguments...]: one process, its log, its clocks.
run() {
  local name=$1 variant=$2 client=$3 bench=$4 shape=$5
  shift 5
  local tag="$name-$client-$bench-$shape-$variant"
  local log="$out/logs/$tag.log" clock="$out/clocks/$tag.csv" sampler= status
  local command
  case "$client" in
    clblast) command=("$bin/cl2vk-client-clblast") ;;
    clfft) command=("$bin/cl2vk-client-clfft") ;;
    transfer) command=("$bin/cl2vk-client-transfer") ;;
    image) command=("$bin/cl2vk-client-image") ;;
    concurrency) command=("$bin/cl2vk-client-concurrency") ;;
    multigpu) command=("$bin/cl2vk-client-multigpu") ;;
    clpeak) command=("$python" "$root/tools/bench/clients/clpeak_client.py") ;;
    pyopencl) command=(env "${python_env[@]}" "$python" "$root/tools/bench/clients/pyopencl_client.py") ;;
  esac
  if [ $clocks = 1 ]; then
    nvidia-smi --id="${CL2VK_CLIENT_GPU:-0}" --query-gpu=timestamp,clocks.sm,clocks.mem \
      --format=csv,noheader,nounits -lms 100 </dev/null >"$clock" 2>/dev/null &
    sampler=$!
  fi
  OCL_ICD_VENDORS=$vendors/$name timeout -k 10 "$limit" "${command[@]}" --bench "$bench" \
    --shape "$shape" --runs "$runs" "$@" </dev/null >"$log" 2>&1  # stdin is the list of benchmarks
  status=$?
  if [ $status = 124 ] || [ $status = 137 ]; then echo "stopped after $limit s (--timeout)" >>"$log"; fi
  if [ -n "$sampler" ]; then kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null; fi
  printf '%s\t%s\t%s %s %s\t%s\t%s\t%s\n' "$name" "$variant" "$client" "$bench" "$shape" "$status" \
    "$log" "$([ -n "$sampler" ] && echo "$clock")" >>"$manifest"
  printf 'run-client-benchmarks: %-8s %-28s %-8s %s\n' "$name" "$client $bench $shape" "$variant" \
    "$( [ $status = 0 ] && grep -o '"value":[^,]*' "$log" | head -1 || echo "FAILED (exit $status, $log)")" >&2
}

echo "run-client-benchmarks: size $size, $runs timed calls per process; implementations: ${impls[*]}" >&2
while read -r client bench shape; do
  for name in "${names[@]}"; do
    extra=()
    if [ "$client $bench" = "clblast sgemm" ]; then extra=(--params-out "$out/params/$name-$shape.txt"); fi
    run "$name" default "$client" "$bench" "$shape" "${extra[@]}"
  done
  if [ "$client $bench" = "clblast sgemm" ]; then
    for source in "${param_sources[@]}"; do
      params=$out/params/$source-$shape.txt
      for name in "$subject" "$source"; do
        run "$name" "params-$source" "$client" "$bench" "$shape" --params-in "$params"
        [ "$source" = "$subject" ] && break  # alone: the subject once, with its own parameters
      done
    done
  fi
done <<<"$benches"

"$python" "$root/tools/bench/clients/report.py" --manifest "$manifest" --subject "$subject" \
  --size "$size" --runs "$runs" --jsonl "$out/results.jsonl" >"$out/table.md"
status=$?
cat "$out/table.md"
echo "run-client-benchmarks: results in $out" >&2
exit $status
