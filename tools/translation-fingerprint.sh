#!/usr/bin/env bash
# Prints a fingerprint of everything the translator does to the corpus: for every corpus module and
# fuzz regression input, under each target cl2vk-opt can describe, the SHA-256 of the translated
# module, of its reflection JSON and of its --stats lines, or the exact error; then the same for
# every prefix of the pass pipeline and for every pass alone. Two builds whose fingerprints are
# equal translate the corpus bit-identically and refuse the same modules with the same messages.
#
#   tools/translation-fingerprint.sh <build-dir> > after.txt
#   diff before.txt after.txt     # a refactoring must show no difference
#
# <build-dir> must hold a built cl2vk-opt and corpus (cmake --build <build-dir> --target cl2vk-opt corpus).
set -euo pipefail

build=${1:?usage: translation-fingerprint.sh <build-dir>}
build=$(cd "$build" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
opt="$build/tools/cl2vk-opt"
[ -x "$opt" ] || { echo "translation-fingerprint: no cl2vk-opt in $build/tools" >&2; exit 2; }
[ -f "$build/spirv/corpus.txt" ] || { echo "translation-fingerprint: no corpus in $build/spirv" >&2; exit 2; }

# The passes: the flags --help lists after its "Passes" heading.
mapfile -t passes < <("$opt" --help | sed -n '/^Passes/,$p' | sed -n 's/^  --\([a-z-]*\) .*/\1/p')
[ ${#passes[@]} -gt 0 ] || { echo "translation-fingerprint: cl2vk-opt --help lists no pass" >&2; exit 2; }

# Inputs by a path relative to their own folder, so that messages naming them match across builds.
inputs=()
while read -r module; do inputs+=("spirv:${module#"$build/spirv/"}"); done < "$build/spirv/corpus.txt"
for file in "$source_dir"/tests/fuzz/regressions/* "$source_dir"/tests/fuzz/open/*; do
  [ -f "$file" ] && inputs+=("fuzz:${file#"$source_dir/tests/fuzz/"}")
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One line: <input> <configuration> then the three hashes, or the exit code and the error.
fingerprint() {
  local input=$1 config=$2
  shift 2
  local dir=${input%%:*} file=${input#*:}
  local root=$build/spirv
  [ "$dir" = fuzz ] && root=$source_dir/tests/fuzz
  local out="$scratch/$BASHPID"
  local code=0
  (cd "$root" && "$opt" "$@" --stats --reflect="$out.json" "$file" -o "$out.spv" 2> "$out.err") || code=$?
  if [ $code -eq 0 ]; then
    echo "$input $config $(sha256sum < "$out.spv" | cut -c1-16) $(sha256sum < "$out.json" | cut -c1-16) $(sha256sum < "$out.err" | cut -c1-16)"
  else
    echo "$input $config exit=$code $(tr '\n' ' ' < "$out.err")"
  fi
  rm -f "$out.spv" "$out.json" "$out.err"
}
export -f fingerprint
export build source_dir opt scratch

{
  for input in "${inputs[@]}"; do
    echo "$input pipeline"
    echo "$input vulkan1.1 --target-env=vulkan1.1"
    echo "$input vulkan1.3 --target-env=vulkan1.3"
    echo "$input no-subgroup-arithmetic --no-subgroup-arithmetic"
    echo "$input shuffle-scans --subgroup-scans=shuffle-up"
    prefix=""
    for pass in "${passes[@]}"; do
      prefix+=" --$pass"
      echo "$input through-$pass$prefix"
      echo "$input only-$pass --$pass"
    done
  done
} | xargs -P "$(nproc)" -L 1 bash -c 'fingerprint "$@"' _ | LC_ALL=C sort
