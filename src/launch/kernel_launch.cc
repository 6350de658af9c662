#include "launch/kernel_launch.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "launch/printf_output.h"
#include "support/settings.h"

namespace cl2vk::launch {
namespace {

void put32(std::vector<std::byte>& bytes, uint32_t offset, uint32_t value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

// CL2VK_PIPELINE_STATISTICS=1: every pipeline a kernel gets is created with the driver's
// statistics captured (VK_KHR_pipeline_executable_properties), which go to stderr, one line each.
bool pipelineStatisticsRequested() {
  static const bool requested = settings::isOn(settings::Setting::kPipelineStatistics);
  return requested;
}

// Subgroup scans in shuffle-up steps (Target::shuffleScans) where the device has them and
// CL2VK_SUBGROUP_SCANS asks for "shuffle-up"; unset (or any other value), on NVIDIA's driver,
// where they measured 11-21 % faster than its own scans (docs/PERFORMANCE.md); "native" never.
bool shuffleScansFor(const vulkan::DeviceInfo& info) {
  if (!info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT)) return false;
  const std::optional<std::string> choice = settings::read(settings::Setting::kSubgroupScans);
  if (choice == "shuffle-up") return true;
  if (choice == "native") return false;
  constexpr uint32_t kNvidia = 0x10de;
  return info.vendorId == kNvidia;
}

// Target::loopUnroll from CL2VK_LOOP_UNROLL (1 to 16; 1 unrolls nothing), else the default.
uint32_t loopUnrollCount() {
  const std::optional<std::string> choice = settings::read(settings::Setting::kLoopUnroll);
  uint32_t count = Target{}.loopUnroll;
  if (!choice) return count;
  char* end = nullptr;
  unsigned long chosen = std::strtoul(choice->c_str(), &end, 10);
  return *end == '\0' && chosen >= 1 && chosen <= 16 ? static_cast<uint32_t>(chosen) : count;
}

void printStatistics(const std::string& kernel, const vulkan::Pipeline& pipeline,
                     const std::array<uint32_t, 3>& local) {
  Expected<std::vector<std::string>> statistics = pipeline.statistics();
  std::string line;
  if (!statistics)
    line = statistics.error().message();
  else
    for (const std::string& statistic : *statistics) line += (line.empty() ? "" : "; ") + statistic;
  std::fprintf(stderr, "cl2vk: pipeline statistics: kernel '%s' local %ux%ux%u: %s\n", kernel.c_str(), local[0],
               local[1], local[2], line.c_str());
}

// The word limit-loop-iterations sets when a loop would have run past the device's loop limit: the
// driver ended that loop early, so what the kernel wrote is wrong and must not pass for a result.
// Said on stderr too, whatever CL2VK_LOG says: an application that never looks at the kernel's
// event (pyopencl's arrays do not) would otherwise read the wrong values in silence.
Status checkLoopLimit(vulkan::Buffer& flag, const vulkan::DeviceInfo& info, const std::string& kernel) {
  Expected<std::vector<uint32_t>> hit = flag.downloadValues<uint32_t>(1);
  if (!hit) return hit.error();
  if ((*hit)[0] == 0) return okStatus();
  std::string why = "a loop ran past " + info.name + "'s limit of " + std::to_string(info.loopIterationLimit) +
                    " loop iterations per invocation (all loops together; the driver ends the loop there, so the "
                    "results are wrong): split the work into more work-items or launches, or run on a device "
                    "without the limit, such as SwiftShader (CL2VK_DEVICE=SwiftShader with its driver visible to "
                    "the Vulkan loader; cl2vk's docs/runtime.md, \"Loop limit\")";
  std::fprintf(stderr, "cl2vk: kernel '%s' failed: %s\n", kernel.c_str(), why.c_str());
  return Error(why);
}

// A printf buffer with an empty header: no words used, room for the rest of the buffer.
Expected<vulkan::Buffer> emptyPrintfBuffer(vulkan::Device& device) {
  Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device, kPrintfBufferSize);
  if (!buffer) return buffer.error();
  const std::array<uint32_t, 2> header = {0, kPrintfRecordWords};
  CL2VK_TRY(buffer->uploadValues(std::span<const uint32_t>(header)));
  return buffer;
}

// Writes the records a kernel left in `buffer` to stdout, in the order they were reserved.
Status printRecords(vulkan::Buffer& buffer, const std::vector<PrintfFormat>& formats) {
  Expected<std::vector<uint32_t>> header = buffer.downloadValues<uint32_t>(PrintfBufferLayout::kFirstRecordWord);
  if (!header) return header.error();
  // Records that did not fit still advanced the count; none of them was written. The capacity is
  // the host's own, not what a faulty kernel may have left in word 1.
  uint32_t used = std::min((*header)[PrintfBufferLayout::kUsedWords], kPrintfRecordWords);
  if (used == 0) return okStatus();
  Expected<std::vector<uint32_t>> records =
      buffer.downloadValues<uint32_t>(used, PrintfBufferLayout::kFirstRecordWord * 4);
  if (!records) return records.error();
  std::string text = formatPrintfRecords(formats, *records);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return okStatus();
}

}  // namespace

Target targetFor(const vulkan::DeviceInfo& info) {
  Target target;
  uint32_t minor = VK_API_VERSION_MINOR(info.apiVersion);
  target.vulkanEnv = minor >= 3 ? SPV_ENV_VULKAN_1_3 : minor == 2 ? SPV_ENV_VULKAN_1_2 : SPV_ENV_VULKAN_1_1;
  target.minSubgroupSize = info.subgroup.minSize ? info.subgroup.minSize : info.subgroup.size;
  target.maxSubgroupSize = info.subgroup.maxSize ? info.subgroup.maxSize : info.subgroup.size;
  target.subgroupArithmetic = info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  target.subgroupExtendedTypes = info.features.shaderSubgroupExtendedTypes;
  target.subgroupVote = info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_VOTE_BIT);
  target.subgroupBallot = info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_BALLOT_BIT);
  target.subgroupShuffle = info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
  target.subgroupShuffleRelative = info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT);
  target.subgroupClustered = info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_CLUSTERED_BIT);
  // llvmpipe runs a work-group row by row, SubgroupSize invocations of x at a time (measured on
  // Mesa 22.3: a 13x5 work-group has ten subgroups, 8 + 5 per row).
  target.subgroupsByRow = info.driverId == VK_DRIVER_ID_MESA_LLVMPIPE;
  target.requiredSubgroupSize = info.subgroup.requiredSizeInCompute;
  target.shuffleScans = shuffleScansFor(info);
  target.int8 = info.features.shaderInt8;
  target.int16 = info.features.shaderInt16;
  target.int64 = info.features.shaderInt64;
  target.float16 = info.features.shaderFloat16;
  target.float64 = info.features.shaderFloat64;
  target.denormPreserveFloat32 = info.denormPreserveFloat32;
  target.storage8 = info.features.storageBuffer8BitAccess;
  target.storage16 = info.features.storageBuffer16BitAccess;
  target.maxPushConstantsSize = info.limits.maxPushConstantsSize;
  target.maxWorkGroupInvocations = info.limits.maxComputeWorkGroupInvocations;
  target.loopIterationLimit = info.loopIterationLimit;
  target.loopUnroll = loopUnrollCount();
  // Both CPU drivers run loops for a SIMD batch of invocations (frontend_kernels_test's
  // NestedBreaksKeepEachItemsLastValue gets wrong values on both without merge phis).
  target.loopExitPhis = info.driverId == VK_DRIVER_ID_GOOGLE_SWIFTSHADER || info.driverId == VK_DRIVER_ID_MESA_LLVMPIPE;
  target.pointerPhis = info.driverId != VK_DRIVER_ID_GOOGLE_SWIFTSHADER;
  // Both CPU drivers compute Fma as a multiplication and an addition (measured: fma(1 + 2^-23,
  // 1 - 2^-23, -1) is 0 on both, -2^-46 fused).
  target.fusedFma = info.driverId != VK_DRIVER_ID_GOOGLE_SWIFTSHADER && info.driverId != VK_DRIVER_ID_MESA_LLVMPIPE;
  // llvmpipe's code depends on the host CPU: on one without AVX-512 (or without AVX) it rounds
  // doubles wrong and aborts on a broadcast-first of a computed float (docs/decisions.md). Whatever
  // the CPU here, the translation avoids both.
  target.float64Rounding = target.broadcastFirstOfComputedFloats = info.driverId != VK_DRIVER_ID_MESA_LLVMPIPE;
  return target;
}

KernelArg KernelArg::buffer(const vulkan::Buffer& buffer, uint64_t offset) {
  KernelArg arg;
  arg.kind = Kind::kBuffer;
  arg.address = buffer.deviceAddress() + offset;
  return arg;
}

KernelArg KernelArg::local(size_t bytes) {
  KernelArg arg;
  arg.kind = Kind::kLocal;
  arg.localSize = bytes;
  return arg;
}

KernelArg KernelArg::raw(const void* data, size_t size) {
  KernelArg arg;
  arg.kind = Kind::kBytes;
  arg.bytes.resize(size);
  std::memcpy(arg.bytes.data(), data, size);
  return arg;
}

Expected<std::unique_ptr<LaunchableKernel>> LaunchableKernel::create(vulkan::Device& device,
                                                                     std::shared_ptr<const Translation> translation,
                                                                     const std::string& name) {
  const KernelReflection* found = nullptr;
  for (const KernelReflection& kernel : translation->reflection.kernels) {
    if (kernel.name == name) found = &kernel;
  }
  if (!found) return Error("the module has no kernel named '" + name + "'");
  Expected<std::vector<uint32_t>> spirv = kernelModule(translation->spirv, name);
  if (!spirv) return spirv.error();
  return std::unique_ptr<LaunchableKernel>(
      new LaunchableKernel(device, std::move(translation), found, std::move(*spirv)));
}

std::array<uint32_t, 3> LaunchableKernel::chooseLocalSize(const NDRange& range) const {
  if (reflection_->requiredWorkGroupSize) return *reflection_->requiredWorkGroupSize;
  // The largest size up to 256 that divides the range (no remainder dispatch); when that is small
  // and the program allows work-groups of unequal size, 64 with a remainder group instead.
  std::array<uint32_t, 3> local{1, 1, 1};
  uint32_t budget = std::min<uint32_t>(256, device_.info().limits.maxComputeWorkGroupInvocations);
  for (uint32_t candidate = std::min<uint64_t>(budget, range.globalSize[0]); candidate > 1; --candidate) {
    if (range.globalSize[0] % candidate == 0 && candidate <= device_.info().limits.maxComputeWorkGroupSize[0]) {
      local[0] = candidate;
      break;
    }
  }
  if (!range.uniformWorkGroups && local[0] < 16 && range.globalSize[0] > 64) local[0] = 64;
  return local;
}

Status LaunchableKernel::checkArguments(std::span<const KernelArg> args) const {
  const auto& params = reflection_->arguments;
  if (args.size() != params.size())
    return Error("kernel '" + reflection_->name + "' takes " + std::to_string(params.size()) + " arguments, not " +
                 std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& param = params[i];
    const KernelArg& arg = args[i];
    std::string where =
        "kernel '" + reflection_->name + "', argument " + std::to_string(i) + " ('" + param.name + "'): ";
    switch (param.kind) {
      case ArgumentKind::kGlobalPointer:
      case ArgumentKind::kConstantPointer:
        if (arg.kind != KernelArg::Kind::kBuffer) return Error(where + "expects a buffer");
        break;
      case ArgumentKind::kLocalPointer:
        if (arg.kind != KernelArg::Kind::kLocal || arg.localSize == 0) return Error(where + "expects a __local size");
        break;
      case ArgumentKind::kValue:
      case ArgumentKind::kImage:
      case ArgumentKind::kSampler:
        if (arg.kind != KernelArg::Kind::kBytes || arg.bytes.size() != param.size)
          return Error(where + "expects " + std::to_string(param.size) + " bytes");
        break;
    }
  }
  return okStatus();
}

Expected<const vulkan::Pipeline*> LaunchableKernel::pipelineFor(
    const std::array<uint32_t, 3>& local, const std::array<uint32_t, 3>& enqueued,
    const std::vector<std::pair<uint32_t, uint32_t>>& arguments) {
  // Subgroups hold consecutive linear local ids in 1D work-groups and where the x size is a
  // multiple of the subgroup size; other shapes (lavapipe packs those by rows) take the
  // collectives' Workgroup-memory path.
  const vulkan::SubgroupInfo& subgroup = device_.info().subgroup;
  uint32_t subgroupSize = reflection_->requiredSubgroupSize.value_or(std::max<uint32_t>(subgroup.size, 1));
  VkBool32 linearSubgroups = (local[1] == 1 && local[2] == 1) || local[0] % subgroupSize == 0;
  std::vector<uint32_t> key(local.begin(), local.end());
  key.insert(key.end(), enqueued.begin(), enqueued.end());
  key.push_back(linearSubgroups);
  for (auto [id, value] : arguments) key.insert(key.end(), {id, value});
  PipelineSlot* slot = nullptr;
  {
    std::lock_guard lock(pipelinesMutex_);
    std::unique_ptr<PipelineSlot>& found = pipelines_[key];
    if (!found) found = std::make_unique<PipelineSlot>();
    slot = found.get();
  }
  std::lock_guard lock(slot->mutex);
  if (slot->pipeline) return slot->pipeline.get();

  vulkan::PipelineDesc desc;
  desc.spirv = spirv_;
  desc.entryPoint = reflection_->name;
  desc.pushConstantSize = reflection_->pushConstantSize;
  for (uint32_t d = 0; d < 3; ++d) {
    desc.specializationConstants.push_back(vulkan::SpecializationConstant::of(SpecIds::kWorkGroupSize + d, local[d]));
    desc.specializationConstants.push_back(
        vulkan::SpecializationConstant::of(SpecIds::kEnqueuedWorkGroupSize + d, enqueued[d]));
  }
  desc.specializationConstants.push_back(
      vulkan::SpecializationConstant::of(SpecIds::kLinearSubgroups, linearSubgroups));
  for (auto [id, value] : arguments)
    desc.specializationConstants.push_back(vulkan::SpecializationConstant::of(id, value));
  // intel_reqd_sub_group_size (the translator has checked the device can): asked for where the
  // device has more than one size, with full subgroups where the x size is a multiple of it.
  if (reflection_->requiredSubgroupSize && subgroup.requiredSizeInCompute) {
    desc.requiredSubgroupSize = subgroupSize;
    desc.requireFullSubgroups = subgroup.computeFullSubgroups && local[0] % subgroupSize == 0;
  }
  desc.captureStatistics = pipelineStatisticsRequested() && device_.info().features.pipelineExecutableInfo;
  Expected<vulkan::Pipeline> pipeline = vulkan::Pipeline::create(device_, desc);
  if (!pipeline) return pipeline.error().withContext("kernel '" + reflection_->name + "'");
  if (desc.captureStatistics) printStatistics(reflection_->name, *pipeline, local);
  slot->pipeline = std::make_unique<vulkan::Pipeline>(std::move(*pipeline));
  return slot->pipeline.get();
}

Expected<std::shared_ptr<vulkan::Buffer>> createGlobalVariables(vulkan::Device& device,
                                                                const GlobalVariablesLayout& layout) {
  if (layout.size == 0) return std::shared_ptr<vulkan::Buffer>();
  Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device, layout.size);
  if (!buffer) return buffer.error();
  // Zeros everywhere (the size is a multiple of 8), then the span that the initializers and pointers
  // set, which alone is built on the host: a large array without an initializer costs no host memory.
  CL2VK_TRY(buffer->fill(0, 0, layout.size));
  if (layout.initialBytes.empty() && layout.pointers.empty())
    return std::make_shared<vulkan::Buffer>(std::move(*buffer));
  uint32_t begin = layout.size, end = 0;
  for (const GlobalVariablesLayout::InitialBytes& run : layout.initialBytes) {
    begin = std::min(begin, run.offset);
    end = std::max(end, run.offset + static_cast<uint32_t>(run.bytes.size()));
  }
  for (const GlobalVariablesLayout::Pointer& pointer : layout.pointers) {
    begin = std::min(begin, pointer.offset);
    end = std::max(end, pointer.offset + static_cast<uint32_t>(sizeof(uint64_t)));
  }
  std::vector<uint8_t> bytes(end - begin, 0);
  for (const GlobalVariablesLayout::InitialBytes& run : layout.initialBytes)
    std::copy(run.bytes.begin(), run.bytes.end(), bytes.begin() + (run.offset - begin));
  for (const GlobalVariablesLayout::Pointer& pointer : layout.pointers) {
    uint64_t address = buffer->deviceAddress() + pointer.addend;
    std::memcpy(bytes.data() + (pointer.offset - begin), &address, sizeof address);
  }
  CL2VK_TRY(buffer->upload(std::as_bytes(std::span(bytes)), begin));
  return std::make_shared<vulkan::Buffer>(std::move(*buffer));
}

Expected<std::vector<vulkan::GpuTime>> LaunchableKernel::launch(const NDRange& range, std::span<const KernelArg> args,
                                                                uint64_t globalVariables) {
  Expected<PreparedLaunch> prepared = prepare(range, args, globalVariables);
  if (!prepared) return prepared.error();
  Expected<std::vector<vulkan::GpuTime>> times = vulkan::dispatchAll(device_, prepared->dispatches());
  if (times) CL2VK_TRY(prepared->finish());
  return times;
}

std::vector<vulkan::Dispatch> PreparedLaunch::dispatches() const {
  std::vector<vulkan::Dispatch> dispatches;
  for (const Part& part : parts_)
    dispatches.push_back(vulkan::Dispatch{part.pipeline, part.pushConstants, part.groups});
  return dispatches;
}

const std::string& PreparedLaunch::kernelName() const { return kernel_->reflection().name; }

Status PreparedLaunch::finish() {
  if (printfBuffer_) CL2VK_TRY(printRecords(*printfBuffer_, kernel_->translation_->reflection.printfFormats));
  if (loopLimitFlag_) CL2VK_TRY(checkLoopLimit(*loopLimitFlag_, kernel_->device_.info(), kernel_->reflection_->name));
  return okStatus();
}

Expected<PreparedLaunch> LaunchableKernel::prepare(const NDRange& range, std::span<const KernelArg> args,
                                                   uint64_t globalVariables) {
  CL2VK_TRY(checkArguments(args));
  if (reflection_->globalVariablesOffset && globalVariables == 0)
    return Error("kernel '" + reflection_->name + "' uses program-scope variables: it needs their buffer");
  if (range.dimensions < 1 || range.dimensions > 3) return Error("work_dim must be 1, 2 or 3");
  std::array<uint32_t, 3> local = range.localSize ? *range.localSize : chooseLocalSize(range);
  const vulkan::DeviceLimits& limits = device_.info().limits;
  uint64_t invocations = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    uint64_t global = d < range.dimensions ? range.globalSize[d] : 1;
    if (d >= range.dimensions) local[d] = 1;
    if (global == 0 || local[d] == 0) return Error("global and local sizes must not be zero");
    if (global > UINT32_MAX || range.globalOffset[d] + global > (uint64_t{1} << 32))
      return Error("dimension " + std::to_string(d) + ": the global size and offset must stay below 2^32");
    if (local[d] > limits.maxComputeWorkGroupSize[d])
      return Error("dimension " + std::to_string(d) + ": local size " + std::to_string(local[d]) +
                   " is above the device's " + std::to_string(limits.maxComputeWorkGroupSize[d]));
    invocations *= local[d];
  }
  if (invocations > limits.maxComputeWorkGroupInvocations)
    return Error("a work-group of " + std::to_string(invocations) + " work-items is above the device's " +
                 std::to_string(limits.maxComputeWorkGroupInvocations));
  if (reflection_->requiredWorkGroupSize && local != *reflection_->requiredWorkGroupSize)
    return Error("kernel '" + reflection_->name + "' requires its reqd_work_group_size");

  // Specialization by the arguments: the __local arguments' element counts (their arrays' sizes)
  // and the image arguments' channel orders and types, read from their records (docs/images.md).
  std::vector<std::pair<uint32_t, uint32_t>> specialization;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& param = reflection_->arguments[i];
    if (param.kind == ArgumentKind::kLocalPointer) {
      size_t element = std::max<uint32_t>(param.localElementSize, 1);
      specialization.emplace_back(param.localSpecId,
                                  static_cast<uint32_t>((args[i].localSize + element - 1) / element));
    } else if (param.kind == ArgumentKind::kImage) {
      uint32_t order = 0, type = 0;
      std::memcpy(&order, args[i].bytes.data() + ImageRecordLayout::kChannelOrder, 4);
      std::memcpy(&type, args[i].bytes.data() + ImageRecordLayout::kChannelType, 4);
      specialization.emplace_back(param.formatSpecId, order);
      specialization.emplace_back(param.formatSpecId + 1, type);
    }
  }

  // The argument block, in the push constants or in a buffer of its own.
  std::vector<std::byte> argumentBytes(reflection_->argumentsSize);
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& param = reflection_->arguments[i];
    uint32_t offset = param.offset - (reflection_->argumentBuffer ? 0 : reflection_->argumentsOffset);
    if (args[i].kind == KernelArg::Kind::kBuffer) std::memcpy(argumentBytes.data() + offset, &args[i].address, 8);
    if (args[i].kind == KernelArg::Kind::kBytes)
      std::memcpy(argumentBytes.data() + offset, args[i].bytes.data(), args[i].bytes.size());
  }
  if (reflection_->globalVariablesOffset) {
    uint32_t offset =
        *reflection_->globalVariablesOffset - (reflection_->argumentBuffer ? 0 : reflection_->argumentsOffset);
    std::memcpy(argumentBytes.data() + offset, &globalVariables, 8);
  }
  std::optional<vulkan::Buffer> printfBuffer;
  if (reflection_->printfBufferOffset) {
    Expected<vulkan::Buffer> buffer = emptyPrintfBuffer(device_);
    if (!buffer) return buffer.error();
    uint64_t address = buffer->deviceAddress();
    uint32_t offset =
        *reflection_->printfBufferOffset - (reflection_->argumentBuffer ? 0 : reflection_->argumentsOffset);
    std::memcpy(argumentBytes.data() + offset, &address, 8);
    printfBuffer = std::move(*buffer);
  }
  std::optional<vulkan::Buffer> loopLimitFlag;
  if (reflection_->loopLimitFlagOffset) {
    Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device_, 4);
    if (!buffer) return buffer.error();
    CL2VK_TRY(buffer->fill(0, 0, 4));
    uint64_t address = buffer->deviceAddress();
    uint32_t offset =
        *reflection_->loopLimitFlagOffset - (reflection_->argumentBuffer ? 0 : reflection_->argumentsOffset);
    std::memcpy(argumentBytes.data() + offset, &address, 8);
    loopLimitFlag = std::move(*buffer);
  }
  std::optional<vulkan::Buffer> argumentBuffer;
  std::vector<std::byte> push(reflection_->pushConstantSize);
  if (reflection_->argumentBuffer) {
    Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device_, std::max<size_t>(argumentBytes.size(), 4));
    if (!buffer) return buffer.error();
    CL2VK_TRY(buffer->upload(argumentBytes));
    uint64_t address = buffer->deviceAddress();
    std::memcpy(push.data() + reflection_->argumentsOffset, &address, 8);
    argumentBuffer = std::move(*buffer);
  } else if (!argumentBytes.empty()) {
    std::memcpy(push.data() + reflection_->argumentsOffset, argumentBytes.data(), argumentBytes.size());
  }

  // One region per shape: full work-groups and the remainder, in each dimension.
  struct Region {
    std::array<uint32_t, 3> local, groups, groupOffset;
  };
  std::vector<Region> regions = {Region{{1, 1, 1}, {1, 1, 1}, {0, 0, 0}}};
  for (uint32_t d = 0; d < 3; ++d) {
    uint64_t global = d < range.dimensions ? range.globalSize[d] : 1;
    uint32_t full = static_cast<uint32_t>(global / local[d]);
    uint32_t remainder = static_cast<uint32_t>(global % local[d]);
    std::vector<Region> next;
    for (const Region& region : regions) {
      if (full > 0) {
        Region r = region;
        r.local[d] = local[d];
        r.groups[d] = full;
        r.groupOffset[d] = 0;
        next.push_back(r);
      }
      if (remainder > 0) {
        Region r = region;
        r.local[d] = remainder;
        r.groups[d] = 1;
        r.groupOffset[d] = full;
        next.push_back(r);
      }
    }
    regions = std::move(next);
  }

  // A dimension with more work-groups than one dispatch may have is split into several
  // dispatches, each starting at its own group offset.
  for (uint32_t d = 0; d < 3; ++d) {
    std::vector<Region> next;
    for (const Region& region : regions) {
      for (uint64_t start = 0; start < region.groups[d]; start += limits.maxComputeWorkGroupCount[d]) {
        Region r = region;
        r.groups[d] =
            static_cast<uint32_t>(std::min<uint64_t>(region.groups[d] - start, limits.maxComputeWorkGroupCount[d]));
        r.groupOffset[d] = region.groupOffset[d] + static_cast<uint32_t>(start);
        next.push_back(r);
      }
    }
    regions = std::move(next);
  }

  PreparedLaunch prepared;
  prepared.kernel_ = this;
  for (const Region& region : regions) {
    Expected<const vulkan::Pipeline*> pipeline = pipelineFor(region.local, local, specialization);
    if (!pipeline) return pipeline.error();
    std::vector<std::byte> bytes = push;
    if (reflection_->usesDispatchInfo) {
      for (uint32_t d = 0; d < 3; ++d) {
        put32(bytes, DispatchInfoLayout::kGlobalOffset + 4 * d, static_cast<uint32_t>(range.globalOffset[d]));
        put32(bytes, DispatchInfoLayout::kGlobalSize + 4 * d,
              static_cast<uint32_t>(d < range.dimensions ? range.globalSize[d] : 1));
        put32(bytes, DispatchInfoLayout::kGroupOffset + 4 * d, region.groupOffset[d]);
      }
      put32(bytes, DispatchInfoLayout::kWorkDim, range.dimensions);
    }
    prepared.parts_.push_back(PreparedLaunch::Part{*pipeline, std::move(bytes), region.groups});
  }
  prepared.argumentBuffer_ = std::move(argumentBuffer);
  prepared.printfBuffer_ = std::move(printfBuffer);
  prepared.loopLimitFlag_ = std::move(loopLimitFlag);
  return prepared;
}

}  // namespace cl2vk::launch
