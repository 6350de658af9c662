// What the generated code may assume about the device it will run on. The runtime fills it from
// the physical device; cl2vk-opt from its flags. The defaults describe a capable desktop GPU.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk {

struct Target {
  spv_target_env vulkanEnv = SPV_ENV_VULKAN_1_2;
  // Subgroup sizes the device may use (VK_EXT_subgroup_size_control's range, or the one size).
  uint32_t minSubgroupSize = 1;
  uint32_t maxSubgroupSize = 128;
  bool subgroupArithmetic = true;     // VK_SUBGROUP_FEATURE_ARITHMETIC_BIT in compute
  bool subgroupExtendedTypes = true;  // shaderSubgroupExtendedTypes: 8/16/64-bit subgroup ops
  // The other VK_SUBGROUP_FEATURE_*_BIT in compute, which the cl_khr_subgroup_* functions need.
  // Without clustered operations, clustered reductions are shuffle-xor steps (docs/collectives.md).
  bool subgroupVote = true, subgroupBallot = true, subgroupShuffle = true, subgroupShuffleRelative = true;
  bool subgroupClustered = true;
  // The device makes subgroups of each row of a work-group separately (x split into subgroups of
  // SubgroupSize, the rest of a row a partial subgroup), as lavapipe does, rather than of runs of
  // consecutive linear local ids; its SubgroupId and NumSubgroups do not follow that packing, so
  // the sub-group builtins are computed from it (docs/collectives.md).
  bool subgroupsByRow = false;
  // VK_EXT_subgroup_size_control's required subgroup size in compute: a kernel may ask for any
  // power of two from minSubgroupSize to maxSubgroupSize (intel_reqd_sub_group_size); without it,
  // only for the one size the device has.
  bool requiredSubgroupSize = true;
  // Subgroup scans as log2(SubgroupSize) OpGroupNonUniformShuffleUp steps (as CUDA's warp scans
  // are written) instead of OpGroupNonUniform* InclusiveScan/ExclusiveScan: 11-21 % faster on
  // NVIDIA's driver (docs/PERFORMANCE.md). Needs VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, and a
  // partial subgroup's invocations in its lowest lanes (as get_sub_group_local_id assumes).
  bool shuffleScans = false;
  bool int8 = true, int16 = true, int64 = true;
  bool float16 = true, float64 = true;
  // shaderDenormPreserveFloat32 (Vulkan 1.2's float controls): the kernels declare DenormPreserve
  // for 32-bit floats, so that a device that would flush float denormals keeps them, as OpenCL's
  // CL_FP_DENORM promises. Off, the device may flush them (OpenCL allows that without CL_FP_DENORM).
  bool denormPreserveFloat32 = false;
  // The program's, not the device's: built with -cl-fast-relaxed-math or
  // -cl-unsafe-math-optimizations, whose relaxed bounds (OpenCL C 3.0, 7.4) let the float
  // functions GLSL.std.450 computes (sin, exp, log, pow, the inverse trigonometric and hyperbolic
  // functions, their derived forms) keep its instructions instead of the builtin library. Double,
  // and what stays exact or GLSL lacks (fmod, remainder, erf, tgamma...), still come from it.
  bool relaxedMath = false;
  // Test-only: compute as a device that flushes float denormals does (NVIDIA's FTZ: arithmetic,
  // comparisons and conversions see and give zero of the sign for a denormal), on a device that
  // keeps them, by integer selects around every such instruction (the emulate-denormal-flush pass).
  // Slow; for testing the builtin library's float math on lavapipe as the GPU computes it.
  bool emulateFloat32DenormalFlush = false;
  bool storage8 = true, storage16 = true;  // 8/16-bit types in buffer memory
  uint32_t maxPushConstantsSize = 128;
  uint32_t maxWorkGroupInvocations = 1024;
  // How many loop-header executions an invocation may make before the driver silently ends its
  // loops (lavapipe: 65536, one budget for all the loops of a batch of invocations); 0 for none.
  // Where there is one, limit-loop-iterations makes running out of it an error.
  uint32_t loopIterationLimit = 0;
  // How many bytes of __private arrays and structs a work-item may keep in Function memory; 0 for
  // no limit. NVIDIA's driver (580) fails to create a pipeline whose invocations need more than
  // about 8 KB of it; move-private-arrays puts the largest of a kernel's over this budget in a
  // scratch buffer the runtime passes (docs/decisions.md, "Private arrays on NVIDIA").
  uint32_t privateMemoryBudget = 0;
  // How many iterations of a loop whose coming iterations can be counted ahead (a grid-stride
  // loop of loads) run per pass of the loop unroll-loops makes of it: this many for a body of up
  // to 16 instructions, half as many (at least 2) for a larger one; below 2, none is unrolled.
  uint32_t loopUnroll = 8;
  // The driver runs a loop while any invocation of a SIMD batch is still in it and recomputes the
  // body for those that left (their loads then give 0), so a value of the loop read after it is
  // right only when it comes through a phi in the loop's merge (SwiftShader, llvmpipe), which
  // SwiftShader's own SPIRV-Tools optimization folds when the phi has one incoming value.
  // structurize-cfg then reads such values through merge phis that have a second, never-taken
  // incoming edge (docs/decisions.md, "Loop-closed SSA").
  bool loopExitPhis = false;
  // The driver runs an OpPhi of PhysicalStorageBuffer pointers. SwiftShader (5.0) crashes on a
  // load through one, and runs the same phi of the addresses as uvec2, which lower-pointer-phis
  // makes where this is off.
  bool pointerPhis = true;
  // The driver computes GLSL.std.450 RoundEven and Trunc of 64-bit floats right. llvmpipe (Mesa
  // 22.3) does not where the CPU's rounding instructions are narrower than its vectors of doubles
  // (AVX2 without AVX-512, SSE4.1: rint(1.5) = 1, trunc(2^33 + 0.5) = 2^33 + 0.5), so for it
  // lower-double-rounding computes them from Floor.
  bool float64Rounding = true;
  // The driver compiles OpGroupNonUniformBroadcastFirst of a value float arithmetic computes.
  // llvmpipe's LLVM 15 aborts the process on one on a CPU without AVX-512, so for it
  // broadcast-first-by-lane broadcasts from the lane a broadcast-first of the lane ids names.
  bool broadcastFirstOfComputedFloats = true;
  // The driver's GLSL.std.450 Fma is fused (one rounding). Vulkan bounds Fma only as an OpFMul
  // followed by an OpFAdd, and llvmpipe and SwiftShader compute it so; OpenCL's fma must be
  // correctly rounded, so where this is off link-builtins gives fma the builtin library's integer
  // form (mad, which OpenCL lets round either way, keeps the instruction).
  bool fusedFma = true;
  // link-builtins takes the builtin library's forms built on fma where it has them (a function's
  // __cl2vk_<name>_f<width>_fused: sin, cos and tan, whose argument reduction is then three fused
  // multiply-adds instead of an exact four-part one). They are right only with a correctly rounded
  // fma, which is the driver's where fusedFma is on and the library's exact one (slow) where it is
  // off; the runtime sets this to fusedFma, and tests set it alone to check those forms on a CPU
  // driver.
  bool fusedLibraryForms = true;
  // split-64-bit-rotates makes a 64-bit rotate by a constant two funnel shifts of its 32-bit halves,
  // the form a GPU's 32-bit shifters run in two instructions (NVIDIA's driver ran the 64-bit form at
  // half the speed). The runtime turns it off for the CPU drivers, whose x86 code has a 64-bit
  // rotate instruction (llvmpipe ran the halves at half the speed of the 64-bit form).
  bool split64BitRotates = true;
  // Vulkan's memory model with device scope (vulkanMemoryModel, vulkanMemoryModelDeviceScope). A
  // module that orders memory at device scope (a fence with memory_scope_device, OpenCL C 2.0's
  // atomics) is translated under it, its releases and acquires making buffer memory available and
  // visible across work-groups; without it such a module keeps the GLSL450 model, under which a
  // driver may serve a buffer load from a cache that other work-groups' stores do not reach
  // (docs/decisions.md, "Device-scope ordering").
  bool vulkanMemoryModel = true;
  // The driver runs a memory barrier (OpMemoryBarrier, and those an atomic's order stands for) as
  // one. llvmpipe (Mesa 22.3) runs each as a control barrier of the work-group, so that in a loop
  // its invocations leave at different times updates are lost (a compare-exchange loop at
  // acq_rel, the CTS's c11_atomics atomic_flag); where this is off, lower-synchronization makes
  // every atomic relaxed and every fence an idempotent atomic on a workgroup word, which llvmpipe,
  // whose atomics are all sequentially consistent, orders as a fence (docs/decisions.md,
  // "Fences on llvmpipe").
  bool memoryBarriers = true;
  // The driver's OpConvertUToF rounds correctly. SwiftShader 5.0's rounds a 32-bit value of 2^31
  // or more twice (0xFFFFFF7F gives 2^32, not 0x1.fffffep+31: the CTS's conversions); where this
  // is off, lower-conversions computes the conversion on the bits, to nearest even.
  bool exactUnsignedToFloat = true;
  // Kernels that compute the same whatever their work-groups are made of (no barrier, no __local
  // memory, no sub-group or work-group function, no sub-group builtin) are translated for free
  // work-groups: their pipelines take a hardware work-group size the runtime chooses, the OpenCL
  // local size comes in the dispatch information, and get_local_id, get_group_id and the other
  // work-group builtins are computed from the global position (KernelReflection::freeWorkGroups).
  // One pipeline then serves every local size (made at the kernel's first launch).
  bool freeWorkGroups = false;

  bool operator==(const Target&) const = default;
};

// Every field of a Target has a cl2vk-opt flag (docs/architecture.md, "Target flags"), so that any
// translation the runtime makes can be repeated with the command.
//
// The flags that make `target` from a default Target: one per field that differs, in a fixed
// order, e.g. {"--target-env=vulkan1.3", "--no-int64", "--loop-iteration-limit=65536"}.
std::vector<std::string> targetFlags(const Target& target);

// Applies one such flag to `target`: true where `flag` is a target flag, false where it is not
// (another option of the command), an error naming the flag where its value is out of range.
Expected<bool> applyTargetFlag(std::string_view flag, Target& target);

// The target flags as --help lists them: "--loop-unroll=<n>" and one paragraph of what it does.
struct TargetFlagHelp {
  std::string usage;
  std::string summary;
};
std::vector<TargetFlagHelp> targetFlagHelp();

}  // namespace cl2vk
