#!/usr/bin/env bash
# The Debian package as a user gets it (docs/install.md): CPack makes it from the build tree, it is
# unpacked (not installed) into a scratch root, and from there
#   - it holds the ICD with its vendors entry, cl2vk-opt, libcl2vk.so with its headers, the CMake
#     package and the pkg-config file, and depends on what they need;
#   - libcl2vk.so exports every function the public headers declare, and nothing of SPIRV-Tools;
#   - examples/translate_library builds against it with find_package(cl2vk) and with pkg-config,
#     and translates a kernel with collectives into valid Vulkan SPIR-V;
#   - examples/translate_command's build runs the packaged cl2vk-opt on OpenCL C it compiles;
#   - examples/collectives_demo runs through the packaged ICD.
#
#   package_test.sh <build dir> <source dir> <collectives_demo>
# CL2VK_TEST_PRELOAD: the sanitizer run-time library a sanitized build's libraries need loaded
# first by the unsanitized programs built here.
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
demo=$(realpath "$3")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
preload=${CL2VK_TEST_PRELOAD:-}

(cd "$build" && cpack -G DEB -B "$scratch/package" > "$scratch/cpack.log" 2>&1) || { cat "$scratch/cpack.log"; fail "cpack"; }
deb=$(ls "$scratch"/package/cl2vk_*.deb)
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
root="$scratch/root"
dpkg-deb -x "$deb" "$root"

# Contents and metadata.
libdir=$(dirname "$(cd "$root" && ls usr/lib*/libcl2vk.so.0 usr/lib/*/libcl2vk.so.0 2>/dev/null | head -1)")
[ -n "$libdir" ] && [ "$libdir" != . ] || fail "no libcl2vk.so.0 under usr/lib"
for file in usr/bin/cl2vk-opt "$libdir/libcl2vk.so" "$libdir/libcl2vk_icd.so.0" etc/OpenCL/vendors/cl2vk.icd \
            usr/include/cl2vk/translator.h usr/include/cl2vk/target.h "$libdir/cmake/cl2vk/cl2vkConfig.cmake" \
            "$libdir/cmake/cl2vk/cl2vkTargets.cmake" "$libdir/pkgconfig/cl2vk.pc"; do
  [ -e "$root/$file" ] || fail "the package lacks /$file"
done
[ "$(cat "$root/etc/OpenCL/vendors/cl2vk.icd")" = "/$libdir/libcl2vk_icd.so.0" ] ||
  fail "cl2vk.icd names '$(cat "$root/etc/OpenCL/vendors/cl2vk.icd")', not /$libdir/libcl2vk_icd.so.0"
depends=$(dpkg-deb -f "$deb" Depends)
for package in libvulkan1 ocl-icd-libopencl1 clang-15 llvm-spirv-15 spirv-tools; do
  [[ ", $depends," == *", $package,"* ]] || fail "Depends ($depends) lacks $package"
done

# The library's exports: each function the public headers declare, nothing of SPIRV-Tools.
exported=$(nm -D --defined-only -C "$root/$libdir/libcl2vk.so" | awk '{ $1 = ""; $2 = ""; print }')
declared=$(grep -hoE '^[A-Za-z][^(/]* \*?[a-zA-Z_]+\(' "$root"/usr/include/cl2vk/{translator,target,spirv,reflection,specialization}.h |
           grep -oE '[a-zA-Z_]+\($' | tr -d '(' | sort -u)
[ "$(echo "$declared" | wc -l)" -ge 20 ] || fail "found only $(echo "$declared" | wc -l) declared functions"
for function in $declared; do
  grep -qE "cl2vk::$function(\[abi:cxx11\])?\(" <<< "$exported" || fail "libcl2vk.so does not export cl2vk::$function"
done
grep -q "spvtools::" <<< "$exported" && fail "libcl2vk.so exports SPIRV-Tools' symbols"
echo "exports: $(echo "$declared" | wc -l) declared functions, all exported"

export LD_LIBRARY_PATH="$root/$libdir"
module="$build/spirv/kernels/collectives_mixed.O2.spv"
[ -f "$module" ] || fail "no corpus module $module"

# find_package(cl2vk).
cmake -S "$source/examples/translate_library" -B "$scratch/library" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DCMAKE_BUILD_TYPE=Release > "$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log"; fail "configure with find_package"; }
cmake --build "$scratch/library" > "$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; fail "build with find_package"; }
out=$(LD_PRELOAD="$preload" "$scratch/library/translate_library" "$module" "$scratch/a.vk.spv" --no-int64 --target-env=vulkan1.3) ||
  fail "translate_library (find_package)"
echo "$out"
grep -q "collectives rewritten" <<< "$out" || fail "translate_library printed no kernel"
spirv-val --target-env vulkan1.3 "$scratch/a.vk.spv" || fail "translate_library's output is not valid for vulkan1.3"

# pkg-config.
flags=$(PKG_CONFIG_PATH="$root/$libdir/pkgconfig" pkg-config --cflags --libs cl2vk) || fail "pkg-config cl2vk"
g++ "$source/examples/translate_library/translate_library.cc" $flags -o "$scratch/with_pkg_config" ||
  fail "g++ with pkg-config's flags ($flags)"
LD_PRELOAD="$preload" "$scratch/with_pkg_config" "$module" "$scratch/b.vk.spv" > /dev/null || fail "translate_library (pkg-config)"
cmp -s "$scratch/a.vk.spv" "$scratch/b.vk.spv" && fail "different target flags gave the same module"
"$root/usr/bin/cl2vk-opt" "$module" -o "$scratch/c.vk.spv" || fail "the packaged cl2vk-opt"
cmp "$scratch/b.vk.spv" "$scratch/c.vk.spv" || fail "the library and the command translated differently"

# The command in a build.
cmake -S "$source/examples/translate_command" -B "$scratch/command" -DCMAKE_PREFIX_PATH="$root/usr" \
  > "$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log"; fail "configure translate_command"; }
cmake --build "$scratch/command" > "$scratch/build.log" 2>&1 ||
  { cat "$scratch/build.log"; fail "build translate_command"; }
grep -q "kernel reduce: 2 collectives rewritten" "$scratch/build.log" || { cat "$scratch/build.log"; fail "cl2vk-opt --stats"; }
spirv-val --target-env vulkan1.2 "$scratch/command/reduce.vk.spv" || fail "translate_command's output is not valid"

# The packaged ICD, through the loader (its vendors entry names /usr/lib: one of ours names the
# unpacked copy).
mkdir "$scratch/vendors"
echo "$root/$libdir/libcl2vk_icd.so.0" > "$scratch/vendors/cl2vk.icd"
OCL_ICD_VENDORS="$scratch/vendors" LD_PRELOAD="$preload" "$demo" > "$scratch/demo.log" 2>&1 ||
  { cat "$scratch/demo.log"; fail "collectives_demo through the packaged ICD"; }
tail -2 "$scratch/demo.log"
echo "PASS"
