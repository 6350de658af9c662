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
  libclblast-dev libclfft-dev
  ffmpeg hashcat
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
else
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# SwiftShader, the second CPU Vulkan driver of the tests. Debian ships it only inside Chromium's
# chromium-common, whose dependencies are a desktop's; its driver needs only libc, libm and
# libgcc_s, so the two files are taken out of the package instead of installing it. They go to a
# directory of their own, with an ICD manifest naming the library by absolute path, and are not
# registered with the Vulkan loader: programs see SwiftShader only when asked
# (VK_ADD_DRIVER_FILES or VK_DRIVER_FILES=/usr/local/share/cl2vk/swiftshader/vk_swiftshader_icd.json,
# README "Devices").
swiftshader=/usr/local/share/cl2vk/swiftshader
if [ ! -f "$swiftshader/libvk_swiftshader.so" ]; then
  echo "install-deps: installing SwiftShader from chromium-common into $swiftshader"
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && apt-get download chromium-common >/dev/null 2>&1 ||
    { "${sudo_cmd[@]}" apt-get update -qq && apt-get download chromium-common; })
  dpkg-deb --fsys-tarfile "$scratch"/chromium-common_*.deb |
    tar -x -C "$scratch" ./usr/lib/chromium/libvk_swiftshader.so ./usr/lib/chromium/vk_swiftshader_icd.json
  "${sudo_cmd[@]}" mkdir -p "$swiftshader"
  "${sudo_cmd[@]}" install -m 644 "$scratch/usr/lib/chromium/libvk_swiftshader.so" "$swiftshader/"
  # The package's manifest names the library relative to itself ("./libvk_swiftshader.so"); the
  # copy names it absolutely, with the same manifest and API versions.
  sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"$swiftshader/libvk_swiftshader.so\"|" \
    "$scratch/usr/lib/chromium/vk_swiftshader_icd.json" | "${sudo_cmd[@]}" tee "$swiftshader/vk_swiftshader_icd.json" >/dev/null
fi
