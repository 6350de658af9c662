// The cl2vk-opt flag of every Target field, in one table: cl2vk-opt parses and documents its flags
// from it, and the runtime writes with it the command that repeats a translation (CL2VK_DUMP).

#include <algorithm>
#include <charconv>

#include "cl2vk/spirv.h"
#include "cl2vk/target.h"

namespace cl2vk {
namespace {

// How a flag sets its field: kSwitch (--name) gives a bool field the opposite of its default;
// kChoice (--name=<one of two words>) sets a bool; kNumber (--name=<n>) a count within a range;
// kEnvironment (--target-env=vulkan1.x) the SPIR-V environment.
enum class Kind { kSwitch, kChoice, kNumber, kEnvironment };

struct Flag {
  Kind kind;
  std::string_view name;  // without the leading "--"
  bool Target::*boolean;
  uint32_t Target::*number;
  uint32_t least, most;                  // kNumber's range
  std::string_view whenFalse, whenTrue;  // kChoice's two words
  std::string_view summary;
};

constexpr Flag switchFlag(std::string_view name, bool Target::*field, std::string_view summary) {
  return {Kind::kSwitch, name, field, nullptr, 0, 0, {}, {}, summary};
}
constexpr Flag choiceFlag(std::string_view name, bool Target::*field, std::string_view whenFalse,
                          std::string_view whenTrue, std::string_view summary) {
  return {Kind::kChoice, name, field, nullptr, 0, 0, whenFalse, whenTrue, summary};
}
constexpr Flag numberFlag(std::string_view name, uint32_t Target::*field, uint32_t least, uint32_t most,
                          std::string_view summary) {
  return {Kind::kNumber, name, nullptr, field, least, most, {}, {}, summary};
}
constexpr Flag environmentFlag(std::string_view name, std::string_view summary) {
  return {Kind::kEnvironment, name, nullptr, nullptr, 0, 0, {}, {}, summary};
}

constexpr uint32_t kLargestCount = 999'999'999;

// Grouped as --help lists them. A field added to Target needs a row here (target_flags_test
// counts the fields).
const Flag kFlags[] = {
    environmentFlag("target-env", "vulkan1.1, vulkan1.2 (default) or vulkan1.3."),
    // Subgroups.
    numberFlag("min-subgroup-size", &Target::minSubgroupSize, 1, 128,
               "The smallest subgroup size the device may use (default 1)."),
    numberFlag("max-subgroup-size", &Target::maxSubgroupSize, 1, 128,
               "The largest subgroup size the device may use (default 128)."),
    switchFlag("no-subgroup-arithmetic", &Target::subgroupArithmetic,
               "Translate for a device without subgroup arithmetic: collectives run in Workgroup memory and "
               "barriers alone."),
    switchFlag("no-subgroup-extended-types", &Target::subgroupExtendedTypes,
               "Translate for a device without shaderSubgroupExtendedTypes: collectives of 8 and 16-bit "
               "values run in Workgroup memory."),
    switchFlag("no-subgroup-vote", &Target::subgroupVote,
               "Translate for a device without subgroup vote operations in compute."),
    switchFlag("no-subgroup-ballot", &Target::subgroupBallot,
               "Translate for a device without subgroup ballot operations in compute."),
    switchFlag("no-subgroup-shuffle", &Target::subgroupShuffle,
               "Translate for a device without subgroup shuffles in compute."),
    switchFlag("no-subgroup-shuffle-relative", &Target::subgroupShuffleRelative,
               "Translate for a device without relative subgroup shuffles (up, down) in compute."),
    switchFlag("no-subgroup-clustered", &Target::subgroupClustered,
               "Translate for a device without clustered subgroup operations: clustered reductions are "
               "shuffle-xor steps."),
    switchFlag("free-work-groups", &Target::freeWorkGroups,
               "Translate the kernels that no barrier, __local memory or sub-group function ties to their "
               "work-groups for free work-groups: one pipeline for every local size, which the runtime "
               "passes in the dispatch information."),
    switchFlag("subgroups-by-row", &Target::subgroupsByRow,
               "Translate for a device that makes subgroups of each row of a work-group separately "
               "(lavapipe): the sub-group builtins are computed from that packing."),
    switchFlag("no-required-subgroup-size", &Target::requiredSubgroupSize,
               "Translate for a device without a required subgroup size in compute: a kernel may ask only "
               "for the one size the device has."),
    choiceFlag("subgroup-scans", &Target::shuffleScans, "native", "shuffle-up",
               "Subgroup scans as OpGroupNonUniform* scans (native, the default) or as shuffle-up steps "
               "(faster on NVIDIA; needs relative shuffles)."),
    // Numbers and memory.
    switchFlag("no-int8", &Target::int8,
               "Translate for a device without shaderInt8: 8-bit integers are computed as 32-bit ones "
               "(lower-narrow-integers)."),
    switchFlag("no-int16", &Target::int16,
               "Translate for a device without shaderInt16: 16-bit integers are computed as 32-bit ones."),
    switchFlag("no-int64", &Target::int64,
               "Translate for a device without shaderInt64: long, size_t and pointer arithmetic on pairs of "
               "32-bit words (lower-int64)."),
    switchFlag("no-float16", &Target::float16,
               "Translate for a device without shaderFloat16: half is moved and converted as its bits; half "
               "arithmetic is refused naming kernel and instruction."),
    switchFlag("no-float64", &Target::float64,
               "Translate for a device without shaderFloat64: double arithmetic is refused naming kernel and "
               "instruction."),
    switchFlag("no-storage8", &Target::storage8,
               "Translate for a device without 8-bit buffer storage: char in buffers is read and written "
               "through 32-bit words."),
    switchFlag("no-storage16", &Target::storage16,
               "Translate for a device without 16-bit buffer storage: short and half in buffers through "
               "32-bit words."),
    switchFlag("preserve-float-denormals", &Target::denormPreserveFloat32,
               "Declare DenormPreserve for 32-bit floats (shaderDenormPreserveFloat32), so that a device "
               "that would flush float denormals keeps them."),
    switchFlag("relaxed-math", &Target::relaxedMath,
               "Translate as for a program built with -cl-fast-relaxed-math or -cl-unsafe-math-optimizations: "
               "float functions GLSL.std.450 computes keep its instructions."),
    switchFlag("flush-float-denormals", &Target::emulateFloat32DenormalFlush,
               "Test-only: compute as a device that flushes float denormals does (zero for a denormal "
               "operand or result of float arithmetic, compares and conversions) on one that keeps them "
               "(emulate-denormal-flush)."),
    numberFlag("max-push-constants-size", &Target::maxPushConstantsSize, 128, 1u << 16,
               "The device's push-constant bytes (default 128); arguments that do not fit go to an argument "
               "buffer."),
    numberFlag("max-work-group-invocations", &Target::maxWorkGroupInvocations, 1, 1u << 16,
               "The device's largest work-group (default 1024)."),
    // What the driver does.
    numberFlag("loop-iteration-limit", &Target::loopIterationLimit, 0, kLargestCount,
               "Translate for a driver that ends loops after <n> loop-header executions per invocation "
               "(lavapipe: 65536): exceeding it is reported. 0 (the default): no limit."),
    numberFlag("private-memory-budget", &Target::privateMemoryBudget, 0, kLargestCount,
               "The most bytes of __private arrays and structs a work-item keeps in Function memory; the "
               "largest beyond it move to a scratch buffer the runtime passes (default 0: no limit)."),
    numberFlag("loop-unroll", &Target::loopUnroll, 1, 16,
               "Run up to <n> iterations per pass of a loop whose coming iterations can be counted ahead "
               "(unroll-loops; default 8, half for a body of over 16 instructions; 1 unrolls nothing)."),
    switchFlag("loop-exit-phis", &Target::loopExitPhis,
               "Translate for a SIMD driver that keeps a value of a loop read after it only in a phi of the "
               "loop's merge (SwiftShader, llvmpipe): such values go through merge phis."),
    switchFlag("no-pointer-phis", &Target::pointerPhis,
               "Translate for a driver that cannot run a phi of buffer pointers (SwiftShader): such phis "
               "merge the addresses as uvec2 instead."),
    switchFlag("no-double-rounding", &Target::float64Rounding,
               "Translate for a driver that rounds doubles wrong (llvmpipe on a CPU without AVX-512): "
               "RoundEven and Trunc of doubles from Floor."),
    switchFlag("no-computed-broadcast-first", &Target::broadcastFirstOfComputedFloats,
               "Translate for a driver that cannot compile a broadcast-first of a computed float (llvmpipe on "
               "a CPU without AVX-512): a broadcast from the lane a broadcast-first of the lane ids names."),
    switchFlag("no-fused-fma", &Target::fusedFma,
               "Translate for a driver whose Fma rounds the product and the sum separately (llvmpipe, "
               "SwiftShader): OpenCL's fma is computed exactly on the integer significands."),
    switchFlag("no-fused-library-forms", &Target::fusedLibraryForms,
               "Translate without the builtin library's forms built on fma (sin, cos and tan reduce their "
               "argument with three fused multiply-adds): the runtime leaves them out where the driver's Fma is not "
               "fused (--no-fused-fma)."),
    switchFlag("no-split-64-bit-rotates", &Target::split64BitRotates,
               "Translate for a driver with a 64-bit rotate instruction (llvmpipe, SwiftShader on x86): 64-bit "
               "rotates by a constant stay shifts of the whole value instead of funnel shifts of its halves."),
    switchFlag("no-vulkan-memory-model", &Target::vulkanMemoryModel,
               "Translate for a device without Vulkan's memory model at device scope: a kernel that orders "
               "memory at device scope keeps the GLSL450 model, whose buffer loads another work-group's "
               "release may not reach."),
    switchFlag("no-memory-barriers", &Target::memoryBarriers,
               "Translate for a driver that runs a memory barrier as a control barrier (llvmpipe): atomics "
               "relaxed, fences as idempotent atomics on a workgroup word, which that driver orders as fences."),
    switchFlag("no-exact-unsigned-to-float", &Target::exactUnsignedToFloat,
               "Translate for a driver whose unsigned-to-float conversion rounds twice (SwiftShader): it is "
               "computed on the bits instead, to nearest even."),
};

std::string usageOf(const Flag& flag) {
  std::string usage = "--" + std::string(flag.name);
  switch (flag.kind) {
    case Kind::kSwitch: return usage;
    case Kind::kChoice: return usage + "=" + std::string(flag.whenFalse) + "|" + std::string(flag.whenTrue);
    case Kind::kNumber: return usage + "=<n>";
    case Kind::kEnvironment: return usage + "=<env>";
  }
  return usage;
}

Expected<uint32_t> parseCount(const Flag& flag, std::string_view value) {
  uint32_t count = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || count < flag.least ||
      count > flag.most)
    return Error("--" + std::string(flag.name) + " needs a number from " + std::to_string(flag.least) + " to " +
                 std::to_string(flag.most) + ", not '" + std::string(value) + "'");
  return count;
}

}  // namespace

std::vector<std::string> targetFlags(const Target& target) {
  const Target defaults;
  std::vector<std::string> flags;
  for (const Flag& flag : kFlags) {
    const std::string prefix = "--" + std::string(flag.name);
    switch (flag.kind) {
      case Kind::kSwitch:
        if (target.*flag.boolean != defaults.*flag.boolean) flags.push_back(prefix);
        break;
      case Kind::kChoice:
        if (target.*flag.boolean != defaults.*flag.boolean)
          flags.push_back(prefix + "=" + std::string(target.*flag.boolean ? flag.whenTrue : flag.whenFalse));
        break;
      case Kind::kNumber:
        if (target.*flag.number != defaults.*flag.number)
          flags.push_back(prefix + "=" + std::to_string(target.*flag.number));
        break;
      case Kind::kEnvironment:
        if (target.vulkanEnv != defaults.vulkanEnv) flags.push_back(prefix + "=" + environmentName(target.vulkanEnv));
        break;
    }
  }
  return flags;
}

Expected<bool> applyTargetFlag(std::string_view argument, Target& target) {
  if (!argument.starts_with("--")) return false;
  const std::string_view text = argument.substr(2);
  const size_t equals = text.find('=');
  const std::string_view name = text.substr(0, equals);
  const auto flag = std::find_if(std::begin(kFlags), std::end(kFlags), [&](const Flag& f) { return f.name == name; });
  if (flag == std::end(kFlags)) return false;
  const bool takesValue = flag->kind != Kind::kSwitch;
  if (takesValue != (equals != std::string_view::npos))
    return Error(takesValue ? usageOf(*flag) + " needs a value" : "--" + std::string(name) + " takes no value");
  const std::string_view value = takesValue ? text.substr(equals + 1) : std::string_view();
  switch (flag->kind) {
    case Kind::kSwitch: target.*flag->boolean = !(Target{}.*flag->boolean); break;
    case Kind::kChoice:
      if (value != flag->whenFalse && value != flag->whenTrue)
        return Error("--" + std::string(name) + " must be " + std::string(flag->whenFalse) + " or " +
                     std::string(flag->whenTrue) + ", not '" + std::string(value) + "'");
      target.*flag->boolean = value == flag->whenTrue;
      break;
    case Kind::kNumber: {
      Expected<uint32_t> count = parseCount(*flag, value);
      if (!count) return count.error();
      target.*flag->number = *count;
      break;
    }
    case Kind::kEnvironment: {
      Expected<spv_target_env> env = parseVulkanEnvironment(value);
      if (!env) return env.error();
      target.vulkanEnv = *env;
      break;
    }
  }
  return true;
}

std::vector<TargetFlagHelp> targetFlagHelp() {
  std::vector<TargetFlagHelp> help;
  for (const Flag& flag : kFlags) help.push_back({usageOf(flag), std::string(flag.summary)});
  return help;
}

}  // namespace cl2vk
