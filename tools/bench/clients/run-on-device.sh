#!/usr/bin/env bash
# Runs the client benchmarks (tools/run-client-benchmarks.sh --size full) on the GPU machine,
# which has no package access and no Vulkan loader: cl2vk through its ICD against NVIDIA's OpenCL
# (libnvidia-opencl.so.1, which has no .icd file there), each benchmark in a process of its own.
# Carry, besides what tools/bench/device-env.sh unpacks (.device/debs: the Vulkan loader;
# .device/cl: ocl-icd, clang-15, llvm-spirv-15; .device/bench/libcl2vk_icd.so):
#   .device/clients/cl2vk-client-clblast, cl2vk-client-clfft, cl2vk-client-transfer (strip them)
#   .device/clients/debs/libclblast1_1.5.3-3_amd64.deb, libclfft2_2.12.2-3.2_amd64.deb
#   for the pyopencl rows, .device/py/ with Debian's python3.11 and its numpy and pyopencl as .deb
#   files (python3.11-minimal, libpython3.11-minimal, libpython3.11-stdlib, python3-numpy,
#   python3-pyopencl, python3-pytools, python3-platformdirs, python3-typing-extensions,
#   python3-mako, python3-markupsafe, python3-appdirs, python3-decorator: `apt-get download` them;
#   the machine has BLAS, LAPACK and gfortran), run from their unpacked tree; or .whl/ with pyopencl
#   wheels for the machine's own python3 (3.12, numpy but no pyopencl); with neither, the pyopencl
#   rows say "ModuleNotFoundError"
# then run it from the repository root with $OUT set; arguments go to run-client-benchmarks.sh
# (--only, --runs). It leaves $OUT/table.md and $OUT/clients.tar.gz (logs, clock samples,
# results.jsonl, the GEMM parameters).
set -u
source tools/bench/device-env.sh .device/bench
for f in .device/clients/debs/*.deb; do dpkg -x "$f" /tmp/cl; done
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
fi
python=python3
if compgen -G ".device/py/python3.11-minimal_*.deb" >/dev/null; then
  mkdir -p /tmp/py && for f in .device/py/*.deb; do dpkg -x "$f" /tmp/py; done
  printf '#!/bin/sh\nexport PYTHONHOME=/tmp/py/usr PYTHONPATH=/tmp/py/usr/lib/python3/dist-packages\nexec /tmp/py/usr/bin/python3.11 "$@"\n' >/tmp/py/python
  chmod +x /tmp/py/python
  python=/tmp/py/python
fi
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
results=/tmp/client-results
bash tools/run-client-benchmarks.sh --size full --bin .device/clients --python "$python" \
  --impl "cl2vk=$PWD/.device/bench/libcl2vk_icd.so" --impl nvidia=libnvidia-opencl.so.1 \
  --out "$results" "$@" >"$OUT/table.md" 2>"$OUT/progress.txt"
status=$?
tar czf "$OUT/clients.tar.gz" -C "$results" .
echo "run-client-benchmarks exit $status"
cat "$OUT/table.md"
exit $status
