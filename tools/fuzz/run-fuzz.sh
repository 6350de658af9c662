#!/usr/bin/env bash
# Builds the translator's libFuzzer target (CL2VK_FUZZ, in build-fuzz/) and runs it.
#
#   tools/fuzz/run-fuzz.sh SECONDS     fuzz for SECONDS, growing fuzz-corpus/grown/ (git-ignored)
#   tools/fuzz/run-fuzz.sh --ci        the CI pass: every seed, then 16 structure-aware mutants of
#                                      each (translate_fuzzer_replay --mutants=16 --seed=1, about
#                                      3,700 inputs, 5 minutes on one core). The inputs depend on
#                                      the seeds alone, so CI and a developer try the same ones; a
#                                      libFuzzer pass follows the coverage it meets, which differed
#                                      between machines, and CI met inputs that a local pass had
#                                      not (the vstore_half regression, an undefined ulong). The
#                                      long mode, coverage-guided, is what finds new bugs: run it
#                                      before a stop and add what it finds to regressions/.
#
# Seeds: the built corpus ($CL2VK_CORPUS_DIR, else build/spirv/ from the ordinary build, whose
# corpus.txt lists the modules) and tests/fuzz/regressions/. A crash, sanitizer report, leak or
# input slower than 60 s stops the run with a nonzero status; libFuzzer writes the input to the
# artifacts directory it names. Extra arguments after SECONDS go to libFuzzer.
set -euo pipefail
cd "$(dirname "$0")/../.."

ci=0
bound=()
if [ "${1:-}" = "--ci" ]; then
  ci=1
  shift
elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  bound=(-max_total_time="$1")
  shift
else
  echo "usage: $0 SECONDS [libFuzzer options...] | $0 --ci" >&2
  exit 2
fi

corpus_list="${CL2VK_CORPUS_DIR:-build/spirv}/corpus.txt"
if [ ! -f "$corpus_list" ]; then
  echo "run-fuzz: $corpus_list is missing; build the corpus first (cmake --build build --target corpus)" >&2
  exit 2
fi

# -O1 keeps the fuzzer fast; assertions stay on (no NDEBUG) because they are checks worth hitting.
# ccache, where installed, as in tools/run-tests.sh.
export CCACHE_BASEDIR="$PWD"
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang-15 CXX=clang++-15 cmake -S . -B build-fuzz -G Ninja -DCL2VK_FUZZ=ON -DCL2VK_WERROR=ON \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-O1 -gline-tables-only" \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" "${launcher[@]}"
fi
cmake --build build-fuzz --target translate_fuzzer translate_fuzzer_replay

# Stack traces with file and line when a symbolizer is installed (llvm-15's, else the default one).
for symbolizer in llvm-symbolizer-15 llvm-symbolizer; do
  if command -v "$symbolizer" > /dev/null; then
    export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(command -v "$symbolizer")}"
    break
  fi
done

if [ "$ci" = 1 ]; then
  # A failing mutant is left in build-fuzz/artifacts/mutant.bin; the replay names its seed first.
  mkdir -p build-fuzz/artifacts
  exec build-fuzz/tests/fuzz/translate_fuzzer_replay --mutants=16 --seed=1 \
    --artifact=build-fuzz/artifacts/mutant.bin tests/fuzz/regressions "--list=$corpus_list"
fi

grown="fuzz-corpus/grown"
artifacts="fuzz-corpus/artifacts"
seeds="fuzz-corpus/seeds"
mkdir -p "$grown" "$seeds" "$artifacts"
xargs -a "$corpus_list" cp -t "$seeds"
find tests/fuzz/regressions -type f ! -name ".*" -exec cp -t "$seeds" {} +

# 64 KiB holds the largest corpus module (about 50 KiB). Leaks are checked at every input.
build-fuzz/tests/fuzz/translate_fuzzer -max_len=65536 -timeout=60 -rss_limit_mb=2048 \
  "${bound[@]}" -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$@" "$grown" "$seeds"
