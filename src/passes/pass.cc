#include "passes/pass.h"

#include "passes/collectives/lower_collectives.h"
#include "passes/control_flow/limit_loop_iterations.h"
#include "passes/control_flow/structurize_cfg.h"
#include "passes/control_flow/unroll_loops.h"
#include "passes/environment/broadcast_first_by_lane.h"
#include "passes/environment/check_supported.h"
#include "passes/environment/drop_optimization_hints.h"
#include "passes/environment/emulate_denormal_flush.h"
#include "passes/environment/finalize_vulkan.h"
#include "passes/environment/freeze_spec_constants.h"
#include "passes/environment/lower_double_rounding.h"
#include "passes/environment/repair_llvm_spirv.h"
#include "passes/functions/drop_unreachable_functions.h"
#include "passes/functions/inline_functions.h"
#include "passes/functions/link_builtins.h"
#include "passes/functions/resolve_builtin_calls.h"
#include "passes/instructions/fold_integer_constants.h"
#include "passes/instructions/full_range_division.h"
#include "passes/instructions/lower_conversions.h"
#include "passes/instructions/lower_images.h"
#include "passes/instructions/lower_kernel_instructions.h"
#include "passes/instructions/lower_opencl_std.h"
#include "passes/instructions/split_64_bit_rotates.h"
#include "passes/interface/canonicalize_builtin_loads.h"
#include "passes/interface/lower_global_variables.h"
#include "passes/interface/lower_kernel_interface.h"
#include "passes/interface/lower_printf.h"
#include "passes/memory/combine_vector_loads.h"
#include "passes/memory/lower_pointer_phis.h"
#include "passes/memory/lower_pointers.h"
#include "passes/memory/lower_synchronization.h"
#include "passes/memory/move_private_arrays.h"
#include "passes/memory/promote_variables.h"
#include "passes/memory/signed_offsets.h"
#include "passes/types/lower_int64.h"
#include "passes/types/lower_narrow_integers.h"
#include "passes/types/widen_odd_integers.h"
#include "passes/vectors/lower_wide_vectors.h"

namespace cl2vk {
namespace {

// Adapts a pass that needs only the target.
template <Expected<PassResult> (*Run)(ir::Module&, const Target&)>
Expected<PassResult> withTarget(ir::Module& module, PassContext& context) {
  return Run(module, context.target);
}

}  // namespace

const std::vector<PassInfo>& registeredPasses() {
  static const std::vector<PassInfo> passes = {
      // Before the input is validated: what no kernel reaches goes, so that nothing works on it or
      // refuses it; what cl2vk cannot translate gets its own message before the
      // validator's, which may know less about it; what llvm-spirv-15 writes against SPIR-V's
      // rules is put right; SPIRV-Tools' validator refuses OpTypeInt of any width but 8, 16, 32
      // and 64, even under ArbitraryPrecisionIntegersINTEL, so clang's odd widths are widened.
      {"drop-unreachable-functions", "Remove the functions that no kernel reaches, before anything reads them.",
       withTarget<dropUnreachableFunctions>, PassStage::kInput},
      {"check-supported", "Fail early, naming the kernel, on pipes, device-side enqueue, function pointers.",
       withTarget<checkSupported>, PassStage::kInput, false},
      {"repair-llvm-spirv",
       "Put right what llvm-spirv-15 writes against SPIR-V's rules: block order, merges, selects, capabilities.",
       withTarget<repairLlvmSpirv>, PassStage::kInput},
      {"drop-optimization-hints",
       "Drop OptNoneINTEL, expect/assume, INTEL loop controls, alias scopes and INTEL fast-math bits.",
       withTarget<dropOptimizationHints>, PassStage::kInput},
      {"widen-odd-integers",
       "Integers of odd widths (i2, i4, i24 ...) become the next standard width, keeping their N-bit semantics.",
       withTarget<widenOddIntegers>, PassStage::kInput},
      {"freeze-spec-constants",
       "The program's specialization constants become constants with their values; their SpecIds go.",
       withTarget<freezeSpecConstants>},
      {"resolve-builtin-calls",
       "Calls to imported collective builtins (work_group_reduce_and ...) become OpGroup* instructions.",
       withTarget<resolveBuiltinCalls>},
      {"lower-images",
       "Images and samplers in software: image records, sampler bits, texel reads and writes through the builtin "
       "library.",
       [](ir::Module& module, PassContext&) { return lowerImages(module); }},
      {"full-range-division",
       "Float divisions by more than 2^126 divide both operands by 4 first (Vulkan bounds OpFDiv only below).",
       withTarget<fullRangeDivision>},
      {"link-builtins",
       "OpenCL.std fmod, asin, exp... that GLSL.std.450 computes too loosely or not for double call the builtin "
       "library.",
       withTarget<linkBuiltins>},
      {"inline-functions", "Inline every call to a defined function; remove functions no kernel reaches.",
       withTarget<inlineFunctions>},
      {"canonicalize-builtin-loads",
       "Reads of work-item builtins through access chains, casts or UniformConstant variables become whole loads.",
       withTarget<canonicalizeBuiltinLoads>},
      {"promote-variables", "Turn Function variables that are only loaded and stored whole into SSA values.",
       withTarget<promoteVariables>},
      {"move-private-arrays",
       "Where a kernel's __private arrays exceed the target's private memory budget, the largest move to a "
       "scratch buffer the runtime passes.",
       withTarget<movePrivateArrays>},
      {"lower-printf", "printf calls append records to a hidden buffer that the runtime formats after the kernel.",
       lowerPrintf},
      {"lower-global-variables",
       "Program-scope __global variables move to one buffer per program, reached through a hidden argument.",
       lowerGlobalVariables},
      {"lower-wide-vectors", "Vectors of 8 and 16 components become their 4-component parts, in values and in memory.",
       withTarget<lowerWideVectors>},
      {"lower-opencl-std",
       "OpenCL.std extended instructions become GLSL.std.450 or core instructions with OpenCL's semantics.",
       withTarget<lowerOpenclStd>},
      {"lower-conversions",
       "Saturating and rounding-mode conversions become plain instructions that compute them exactly.",
       withTarget<lowerConversions>},
      {"lower-kernel-instructions",
       "Kernel-only classification instructions and non-32-bit OpBitCount, with Shader ones.",
       withTarget<lowerKernelInstructions>},
      {"unroll-loops",
       "Innermost loops whose coming iterations can be counted ahead run several per pass, their loads together.",
       withTarget<unrollLoops>},
      {"limit-loop-iterations",
       "Where the driver ends loops after a budget of iterations, running out of it becomes a reported error.",
       withTarget<limitLoopIterations>},
      {"lower-kernel-interface",
       "Kernels become GLCompute entry points: arguments via push constants, work-item builtins via Vulkan's.",
       lowerKernelInterface},
      {"lower-collectives",
       "Work-group and sub-group collectives become subgroup operations plus a shared-memory combine phase.",
       lowerCollectives},
      {"lower-pointers",
       "Global pointers become PhysicalStorageBuffer ones; local and private ones, access chains from their variable.",
       withTarget<lowerPointers>},
      {"fold-integer-constants",
       "Integer arithmetic on constants becomes its constant; x + 0, x * 1 ... become x; p[0] becomes p.",
       withTarget<foldIntegerConstants>},
      {"split-64-bit-rotates",
       "64-bit rotates by a constant become funnel shifts of their 32-bit halves, which GPUs run in half the time.",
       withTarget<split64BitRotates>},
      {"signed-offsets-as-integers",
       "A buffer pointer moved by an index that may be negative is moved by integer arithmetic on its address.",
       withTarget<signedOffsetsAsIntegers>},
      {"lower-synchronization", "Barrier, fence and atomic scopes and memory semantics as Vulkan reads them.",
       withTarget<lowerSynchronization>},
      {"lower-narrow-integers",
       "Without 8/16-bit arithmetic or storage: char and short as 32-bit values, buffers through 32-bit words.",
       withTarget<lowerNarrowIntegers>},
      {"lower-int64",
       "Without shaderInt64: 64-bit integers become pairs of 32-bit words, in values, in memory and in addresses.",
       withTarget<lowerInt64>},
      {"lower-double-rounding",
       "Where the driver rounds doubles wrong (llvmpipe on AVX2 or SSE4.1), RoundEven and Trunc of doubles via Floor.",
       withTarget<lowerDoubleRounding>},
      {"broadcast-first-by-lane",
       "Where the driver cannot (llvmpipe on AVX2 or SSE4.1), broadcast-first becomes a broadcast from the first lane.",
       withTarget<broadcastFirstByLane>},
      {"structurize-cfg", "Turn unstructured control flow into SPIR-V structured control flow (merges, continues).",
       withTarget<structurizeControlFlow>},
      {"lower-pointer-phis",
       "Where the driver cannot (SwiftShader), phis of buffer pointers become phis of their addresses as uvec2.",
       withTarget<lowerPointerPhis>},
      {"combine-vector-loads",
       "Loads of single components of one __local or __private vector become one vector load and extracts.",
       withTarget<combineVectorLoads>},
      {"emulate-denormal-flush",
       "Test-only (Target::emulateFloat32DenormalFlush): float arithmetic flushes denormals as NVIDIA's FTZ does.",
       withTarget<emulateDenormalFlush>},
      {"finalize-vulkan",
       "Capabilities, memory model, version, interfaces and decorations for the Vulkan target; drop unused globals.",
       finalizeVulkanModule},
  };
  return passes;
}

Expected<PassResult> runPasses(ir::Module& module, PassContext& context, const std::vector<const PassInfo*>& passes) {
  PassResult overall = PassResult::kUnchanged;
  for (const PassInfo* pass : passes) {
    Expected<PassResult> result = pass->run(module, context);
    if (!result) return pass->namedInErrors ? result.error().withContext(pass->name) : result.error();
    if (*result == PassResult::kChanged) overall = PassResult::kChanged;
  }
  return overall;
}

}  // namespace cl2vk
