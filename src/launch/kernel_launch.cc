#include "launch/kernel_launch.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "launch/argument_block.h"
#include "launch/ndrange_split.h"
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
  // NVIDIA's driver (580.159, H200) fails to create a pipeline whose invocations need more than
  // about 8 KB of Function memory (a kernel with a uint[2000] array compiled, one with uint[2047]
  // did not); the budget leaves room for the registers it spills there.
  if (info.driverId == VK_DRIVER_ID_NVIDIA_PROPRIETARY) target.privateMemoryBudget = 4096;
  // On unless turned off (docs/decisions.md, "Free work-groups").
  target.freeWorkGroups = settings::read(settings::Setting::kFreeWorkGroups) != "0";
  // Both CPU drivers run loops for a SIMD batch of invocations (frontend_kernels_test's
  // NestedBreaksKeepEachItemsLastValue gets wrong values on both without merge phis).
  const bool cpuDriver =
      info.driverId == VK_DRIVER_ID_GOOGLE_SWIFTSHADER || info.driverId == VK_DRIVER_ID_MESA_LLVMPIPE;
  target.loopExitPhis = cpuDriver;
  target.pointerPhis = info.driverId != VK_DRIVER_ID_GOOGLE_SWIFTSHADER;
  // Both CPU drivers compute Fma as a multiplication and an addition (measured: fma(1 + 2^-23,
  // 1 - 2^-23, -1) is 0 on both, -2^-46 fused).
  target.fusedFma = !cpuDriver;
  // The library's fma forms are faster only with the driver's fused Fma (the exact one is slow).
  target.fusedLibraryForms = target.fusedFma;
  // The CPU drivers' x86 code rotates 64 bits in one instruction; GPUs shift 32 bits at a time.
  target.split64BitRotates = !cpuDriver;
  // llvmpipe's code depends on the host CPU: on one without AVX-512 (or without AVX) it rounds
  // doubles wrong and aborts on a broadcast-first of a computed float (docs/decisions.md). Whatever
  // the CPU here, the translation avoids both.
  target.float64Rounding = target.broadcastFirstOfComputedFloats = info.driverId != VK_DRIVER_ID_MESA_LLVMPIPE;
  target.vulkanMemoryModel = info.features.vulkanMemoryModel && info.features.vulkanMemoryModelDeviceScope;
  // llvmpipe runs a memory barrier as a control barrier (measured on Mesa 22.3: a compare-exchange
  // loop at acq_rel adds 108 instead of 480 for 240 work-items in groups of 40).
  target.memoryBarriers = info.driverId != VK_DRIVER_ID_MESA_LLVMPIPE;
  // SwiftShader rounds an unsigned-to-float conversion of 2^31 or more twice (measured: 0xFFFFFF7F
  // gives 2^32).
  target.exactUnsignedToFloat = info.driverId != VK_DRIVER_ID_GOOGLE_SWIFTSHADER;
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

std::optional<std::array<uint32_t, 3>> LaunchableKernel::freeWorkGroupSize(const NDRange& range) const {
  if (!reflection_->freeWorkGroups) return std::nullopt;
  // 256 invocations for every 1D range, so that one pipeline serves them all, the smallest (a
  // self-test of one work-item) included: NVIDIA starts work-groups at a limited rate, and a
  // streaming kernel in work-groups of 64 ran at a third of its speed in 256 (a uint copy on the
  // H200: 835 against 2615 GB/s; hand-written GLSL and NVIDIA's OpenCL alike). A 2D or 3D range has
  // a hardware work-group per row: where its rows are narrower, the power of two that holds one, so
  // that most lanes do not idle.
  const vulkan::DeviceLimits& limits = device_.info().limits;
  uint32_t most = std::min({256u, limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations});
  uint32_t size = 1;
  while (size < most && (range.dimensions == 1 || size < range.globalSize[0])) size *= 2;
  return std::array<uint32_t, 3>{size, 1, 1};
}

Expected<std::shared_ptr<vulkan::Buffer>> LaunchableKernel::takeScratch(uint64_t bytes) {
  std::unique_ptr<vulkan::Buffer> buffer;
  {
    std::lock_guard lock(scratchMutex_);
    // The smallest idle buffer that holds `bytes`; the smaller ones go, as the next launch is
    // likely to need as much again.
    auto fits =
        std::find_if(idleScratch_.begin(), idleScratch_.end(), [&](const auto& b) { return b->size() >= bytes; });
    if (fits != idleScratch_.end()) {
      buffer = std::move(*fits);
      idleScratch_.erase(fits);
    } else {
      idleScratch_.clear();
    }
  }
  if (!buffer) {
    Expected<vulkan::Buffer> created = vulkan::Buffer::create(device_, std::max<uint64_t>(bytes, 4));
    if (!created) return created.error();
    buffer = std::make_unique<vulkan::Buffer>(std::move(*created));
  }
  // Given back when the launch that holds it is destroyed, after its commands completed.
  return std::shared_ptr<vulkan::Buffer>(buffer.release(), [this](vulkan::Buffer* returned) {
    std::lock_guard lock(scratchMutex_);
    auto after = std::upper_bound(idleScratch_.begin(), idleScratch_.end(), returned->size(),
                                  [](uint64_t size, const auto& idle) { return size < idle->size(); });
    idleScratch_.insert(after, std::unique_ptr<vulkan::Buffer>(returned));
  });
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
  if (!pipeline) return pipeline.error();
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
  const vulkan::DeviceLimits& limits = device_.info().limits;
  Expected<std::array<uint32_t, 3>> local =
      checkedLocalSize(range, range.localSize ? *range.localSize : chooseLocalSize(range), limits, *reflection_);
  if (!local) return local.error();

  // With free work-groups the hardware runs the range in its own work-groups, (n, 1, 1) over x
  // rounded up to n; the OpenCL local size travels in the dispatch information.
  const std::optional<std::array<uint32_t, 3>> hardwareLocal = freeWorkGroupSize(range);
  NDRange hardwareRange = range;
  if (hardwareLocal) {
    const uint64_t n = (*hardwareLocal)[0];
    hardwareRange.globalSize[0] = (range.globalSize[0] + n - 1) / n * n;
  }
  const std::array<uint32_t, 3>& dispatchLocal = hardwareLocal ? *hardwareLocal : *local;
  std::vector<DispatchRegion> regions = splitIntoDispatches(hardwareRange, dispatchLocal, limits);

  // A kernel with private scratch: a block for every invocation of the largest dispatch, the
  // dispatches cut to fit the device's privateScratchLimit.
  std::shared_ptr<vulkan::Buffer> scratch;
  if (reflection_->privateScratchOffset) {
    const uint64_t stride = reflection_->privateScratchStride;
    regions = limitInvocations(regions, privateScratchLimit(limits) / stride);
    uint64_t bytes = 0;
    for (const DispatchRegion& region : regions) bytes = std::max(bytes, invocationsOf(region) * stride);
    Expected<std::shared_ptr<vulkan::Buffer>> taken = takeScratch(bytes);
    if (!taken) return taken.error();
    scratch = std::move(*taken);
  }
  Expected<ArgumentBlock> block =
      packArguments(device_, *reflection_, args, globalVariables, scratch ? scratch->deviceAddress() : 0);
  if (!block) return block.error();
  const std::vector<std::pair<uint32_t, uint32_t>> specialization = specializationByArguments(*reflection_, args);

  PreparedLaunch prepared;
  prepared.kernel_ = this;
  for (const DispatchRegion& region : regions) {
    Expected<const vulkan::Pipeline*> pipeline = pipelineFor(region.local, dispatchLocal, specialization);
    if (!pipeline) return pipeline.error();
    std::vector<std::byte> bytes = block->pushConstants;
    if (reflection_->usesDispatchInfo) {
      for (uint32_t d = 0; d < 3; ++d) {
        put32(bytes, DispatchInfoLayout::kGlobalOffset + 4 * d, static_cast<uint32_t>(range.globalOffset[d]));
        put32(bytes, DispatchInfoLayout::kGlobalSize + 4 * d,
              static_cast<uint32_t>(d < range.dimensions ? range.globalSize[d] : 1));
        put32(bytes, DispatchInfoLayout::kGroupOffset + 4 * d, region.groupOffset[d]);
        if (hardwareLocal) put32(bytes, DispatchInfoLayout::kEnqueuedLocalSize + 4 * d, (*local)[d]);
      }
      put32(bytes, DispatchInfoLayout::kWorkDim, range.dimensions);
    }
    prepared.parts_.push_back(PreparedLaunch::Part{*pipeline, std::move(bytes), region.groups});
  }
  prepared.argumentBuffer_ = std::move(block->argumentBuffer);
  prepared.printfBuffer_ = std::move(block->printfBuffer);
  prepared.loopLimitFlag_ = std::move(block->loopLimitFlag);
  prepared.privateScratch_ = std::move(scratch);
  return prepared;
}

}  // namespace cl2vk::launch
