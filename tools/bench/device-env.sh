# Sourced by the scripts that run on the GPU machine without package access (run-on-device.sh,
# run-experiments-on-device.sh), from the repository root: unpacks the carried packages, points the
# Vulkan loader at NVIDIA's driver and the source compiler at the carried clang-15 and
# llvm-spirv-15, and registers cl2vk's ICD (from the folder $1) and NVIDIA's OpenCL with ocl-icd.
for f in .device/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /tmp/cl && for f in .device/cl/*.deb; do dpkg -x "$f" /tmp/cl; done
# ocl-icd's libOpenCL.so.1 where LD_LIBRARY_PATH finds it first: otherwise the machine's own loader
# came first and gave every process NVIDIA's platform, whatever OCL_ICD_VENDORS said.
for f in .device/debs/ocl-icd-libopencl1_*.deb; do dpkg -x "$f" /tmp/cl; done
# clang's OpenCL headers (opencl-c.h, opencl-c-base.h) live in libclang-common-15-dev, whose 30 MB
# do not fit the carry: the two headers travel as a tarball of their installed paths, where the
# carried clang looks for them (its resource directory, relative to the binary).
if [ -f .device/cl/clang-opencl-headers.tar.xz ]; then tar xJf .device/cl/clang-opencl-headers.tar.xz -C /tmp/cl; fi
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export LD_LIBRARY_PATH=/tmp/cl/usr/lib/x86_64-linux-gnu
# Stand-ins for libraries clang links but never calls for OpenCL C, left out of .device/cl to fit.
[ -d .device/cl/stubs ] && LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.device/cl/stubs
export CL2VK_CLANG=/tmp/cl/usr/bin/clang-15 CL2VK_LLVM_SPIRV=/tmp/cl/usr/bin/llvm-spirv-15
mkdir -p /tmp/vendors
echo "$PWD/$1/libcl2vk_icd.so" > /tmp/vendors/cl2vk.icd
echo libnvidia-opencl.so.1 > /tmp/vendors/nvidia.icd
export OCL_ICD_VENDORS=/tmp/vendors
