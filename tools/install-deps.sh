#!/usr/bin/env bash
# Installs every build, test and run dependency of cl2vk from Debian 12's packages.
# Idempotent: packages already installed are skipped, and apt is not touched when none are missing.
set -euo pipefail

packages=(
  cmake g++ ninja-build pkg-config clang-format-15 ccache
  libvulkan-dev libvulkan-volk-dev vulkan-tools
  spirv-tools spirv-headers
  glslang-dev glslang-tools
  mesa-vulkan-drivers vulkan-validationlayers
  googletest libgtest-dev libmpfr-dev
  clang-15 llvm-spirv-15
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers clinfo
  python3-pyopencl python3-pytest python3-numpy
  libclblast-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
