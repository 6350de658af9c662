// Fix-ups of clang-15's LLVM IR text for llvm-spirv-15, made by the source compiler
// (source_compiler.h) between the two tools.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cl2vk::runtime {

// llvm-spirv-15 cannot translate LLVM's `freeze` (clang-15 -O2 adds it, for one, where a division
// and a remainder share their operands). It only stops poison from spreading, which nothing after
// clang relies on, so a bitcast to the same type, which llvm-spirv translates, stands in for it.
// (clang-15 freezes scalars and vectors; a frozen aggregate, which bitcast cannot take, would fail
// in the assembly step with LLVM's message in the log.)
std::string replaceFreezeWithBitcast(std::string_view llvmIr);

// clang-15 -O2 folds a comparison of NULL pointers of two spaces met through generic
// (`__global int* g = NULL; int* p = (__local int*)NULL; g == p`) into an addrspacecast of a
// __local null to __global, which OpenCL C cannot write and llvm-spirv-15 refuses ("Casts from
// private/local/global address space are allowed only to generic") and then crashes on (signal 11,
// the CTS's generic_address_space compare_pointers). NULL is 0 in every OpenCL address space, so
// such a cast of null is the target space's null.
std::string foldNullCastsBetweenNamedSpaces(std::string_view llvmIr);

// OpenCL C follows C99: a plain `inline` function is an inline definition, which clang-15 emits
// `available_externally` and drops once the optimizer has decided not to inline a call (too large,
// as CLBlast's unrolled tiles are on NVIDIA), leaving a call to a function that no module defines;
// at -O0 it is never emitted. Vendors' compilers accept such programs, so, on clang's unoptimized
// output, each inline definition becomes a module-private (`internal`) definition: the optimizer
// may still inline it and drop it, and the translator inlines any call that remains. An
// `extern inline` or non-inline definition, already external, is untouched.
std::string keepInlineDefinitions(std::string_view llvmIr);

// clang-15 -O2 narrows the condition of a switch to the bits its cases need (`switch (x & 3)`
// becomes `switch i2`, hashcat's kernels have hundreds). llvm-spirv-15 refuses such widths by
// default ("InvalidBitWidth") and, with SPV_INTEL_arbitrary_precision_integers, which the source
// compiler enables for the other odd-width instructions, aborts on the switch (its case literals
// are sized for whole words). Each such switch gets its condition zero-extended to 32 bits (64
// above 32) and its case values written as the wider type's.
std::string widenOddWidthSwitches(std::string_view llvmIr);

// LLVM's `convergent` forbids adding control dependences to a call, not removing them: clang-15
// -O2 (SimplifyCFG) turns `if (c) r = f(x, a); else r = f(x, b);` into one `f(x, c ? a : b)` after
// the branch, and identical calls in both arms into one before it. For a sub-group function whose
// result depends on which work-items call it (sub_group_broadcast_first, non-uniform broadcasts,
// reductions, ballots, elect ...) that is a wrong answer, and a clustered function's cluster size
// becomes a phi that SPIR-V refuses. On clang's unoptimized output, every `sub_group_*` function,
// and every function defined in the program that calls one (directly or through others: their
// calls are merged before they are inlined), becomes `nomerge`, which SimplifyCFG's hoisting and
// sinking respect.
std::string keepSubgroupCallsApart(std::string_view llvmIr);

// What CL_KERNEL_ATTRIBUTES reports for each kernel of clang's (unoptimized) IR: the
// `__attribute__` list of its declaration, each as OpenCL C writes it, space separated in the order
// clang keeps them (the hints first, which need not be the source's order)
// ("vec_type_hint(int4) work_group_size_hint(2,3,4) reqd_work_group_size(8,1,1)"), read from the
// metadata clang attaches to the kernel. llvm-spirv-15 keeps the three as execution modes, but
// VecTypeHint has no signedness (int4 and uint4 are one code), so the runtime takes the text from
// here. Pairs of kernel name and attributes, for the kernels that have any.
using KernelAttributeList = std::vector<std::pair<std::string, std::string>>;
KernelAttributeList kernelAttributes(std::string_view llvmIr);

}  // namespace cl2vk::runtime
