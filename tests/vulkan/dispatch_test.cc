// Pipelines and dispatches: GLSL shaders from shaders/tests that reach their buffers through
// device addresses in push constants, sized by specialization constants, checked against the CPU.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/dispatch.h"
#include "vulkan/pipeline.h"

namespace cl2vk::vulkan {
namespace {

// The push-constant block of affine_buffer_reference.comp.
struct AffineArguments {
  VkDeviceAddress source;
  VkDeviceAddress destination;
  int32_t scale;
  int32_t offset;
  uint32_t count;
  uint32_t padding;
};

constexpr int32_t kUntouched = 0x7eadbeef;

std::vector<uint32_t> shaderWords(const std::string& name) {
  return test::readWords(std::filesystem::path(CL2VK_TEST_SHADER_DIR) / (name + ".spv"));
}

class ExecutorDispatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<std::unique_ptr<Device>> opened = Device::open();
    ASSERT_TRUE(opened.ok()) << opened.error().message();
    device_ = std::move(*opened);
    affineWords_ = shaderWords("affine_buffer_reference");
    ASSERT_FALSE(affineWords_.empty());
  }
  void TearDown() override {
    if (!device_) return;
    for (const std::string& message : device_->validationMessages()) ADD_FAILURE() << message;
  }

  Expected<Pipeline> affinePipeline(uint32_t localSize) {
    PipelineDesc desc;
    desc.spirv = affineWords_;
    desc.specializationConstants = {SpecializationConstant::of<uint32_t>(0, localSize)};
    desc.pushConstantSize = sizeof(AffineArguments);
    return Pipeline::create(*device_, desc);
  }

  Buffer makeBuffer(const std::vector<int32_t>& values) {
    Expected<Buffer> buffer = Buffer::create(*device_, values.size() * sizeof(int32_t));
    EXPECT_TRUE(buffer.ok()) << buffer.error().message();
    Status uploaded = buffer->uploadValues(std::span<const int32_t>(values));
    EXPECT_TRUE(uploaded.ok()) << uploaded.error().message();
    return std::move(*buffer);
  }

  static std::vector<int32_t> inputs(uint32_t count) {
    std::vector<int32_t> values(count);
    for (uint32_t i = 0; i < count; ++i) values[i] = static_cast<int32_t>(i * 7) - 1000;
    return values;
  }

  std::unique_ptr<Device> device_;
  std::vector<uint32_t> affineWords_;
};

TEST_F(ExecutorDispatchTest, AffineMatchesTheCpuForEveryLocalSizeAndCount) {
  struct Case {
    uint32_t localSize;
    uint32_t count;
  };
  // Whole work-groups, a partial last one, fewer items than one group, and local sizes that are
  // not multiples of the subgroup size.
  for (Case c : {Case{64, 64}, Case{64, 65}, Case{64, 1000}, Case{64, 1}, Case{7, 100}, Case{1, 5}, Case{256, 4097},
                 Case{1024, 3000}}) {
    SCOPED_TRACE("local size " + std::to_string(c.localSize) + ", count " + std::to_string(c.count));
    Expected<Pipeline> pipeline = affinePipeline(c.localSize);
    ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();

    std::vector<int32_t> source = inputs(c.count);
    // Room past `count` that no invocation may write.
    constexpr uint32_t kGuard = 16;
    Buffer in = makeBuffer(source);
    Buffer out = makeBuffer(std::vector<int32_t>(c.count + kGuard, kUntouched));

    AffineArguments args{in.deviceAddress(), out.deviceAddress(), -3, 11, c.count, 0};
    uint32_t groups = (c.count + c.localSize - 1) / c.localSize;
    Expected<GpuTime> time = dispatch(*device_, *pipeline, bytesOf(args), groups);
    ASSERT_TRUE(time.ok()) << time.error().message();

    Expected<std::vector<int32_t>> result = out.downloadValues<int32_t>(c.count + kGuard);
    ASSERT_TRUE(result.ok()) << result.error().message();
    for (uint32_t i = 0; i < c.count; ++i) {
      ASSERT_EQ((*result)[i], -3 * source[i] + 11) << "at " << i;
    }
    for (uint32_t i = c.count; i < c.count + kGuard; ++i) {
      ASSERT_EQ((*result)[i], kUntouched) << "written past the end at " << i;
    }
  }
}

TEST_F(ExecutorDispatchTest, DispatchIsTimedOnTheGpu) {
  Expected<Pipeline> pipeline = affinePipeline(128);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();
  constexpr uint32_t kCount = 1 << 18;
  Buffer in = makeBuffer(inputs(kCount));
  Buffer out = makeBuffer(std::vector<int32_t>(kCount));
  AffineArguments args{in.deviceAddress(), out.deviceAddress(), 2, 1, kCount, 0};
  Expected<GpuTime> time = dispatch(*device_, *pipeline, bytesOf(args), kCount / 128);
  ASSERT_TRUE(time.ok()) << time.error().message();
  ASSERT_TRUE(device_->info().limits.computeQueueTimestamps);
  ASSERT_TRUE(time->nanoseconds.has_value()) << time->toString();
  EXPECT_GT(*time->nanoseconds, 0.0);
  // Far less than a minute for 256 Ki elements, on any device: catches a wrong period or mask.
  EXPECT_LT(*time->nanoseconds, 60e9);
  std::cout << "affine over " << kCount << " ints: " << time->toString() << "\n";
}

TEST_F(ExecutorDispatchTest, DispatchesInOneSubmissionSeeEachOthersWrites) {
  Expected<Pipeline> pipeline = affinePipeline(32);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();
  constexpr uint32_t kCount = 777;
  std::vector<int32_t> source = inputs(kCount);
  Buffer in = makeBuffer(source);
  Buffer middle = makeBuffer(std::vector<int32_t>(kCount));
  Buffer out = makeBuffer(std::vector<int32_t>(kCount));
  AffineArguments first{in.deviceAddress(), middle.deviceAddress(), 5, -2, kCount, 0};
  AffineArguments second{middle.deviceAddress(), out.deviceAddress(), -1, 3, kCount, 0};
  uint32_t groups = (kCount + 31) / 32;
  std::vector<Dispatch> dispatches = {{&*pipeline, bytesOf(first), {groups, 1, 1}},
                                      {&*pipeline, bytesOf(second), {groups, 1, 1}}};
  Expected<std::vector<GpuTime>> times = dispatchAll(*device_, dispatches);
  ASSERT_TRUE(times.ok()) << times.error().message();
  EXPECT_EQ(times->size(), 2u);

  Expected<std::vector<int32_t>> result = out.downloadValues<int32_t>(kCount);
  ASSERT_TRUE(result.ok()) << result.error().message();
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ((*result)[i], -(5 * source[i] - 2) + 3) << "at " << i;
}

// Submissions made without waiting run in submission order, each after the writes of those
// before it; they may be waited for in any order, by several threads at once, and a wait whose
// deadline has passed reports whether the submission finished instead of failing.
TEST_F(ExecutorDispatchTest, SubmissionsInFlightRunInOrderAndMayBeWaitedForInAnyOrder) {
  Expected<Pipeline> pipeline = affinePipeline(64);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();
  constexpr uint32_t kCount = 1 << 16, kChain = 6;
  std::vector<int32_t> source = inputs(kCount);
  // buffers[k + 1] = 3 * buffers[k] + k, one submission per step, none waited for.
  std::vector<Buffer> buffers;
  buffers.push_back(makeBuffer(source));
  for (uint32_t k = 0; k < kChain; ++k) buffers.push_back(makeBuffer(std::vector<int32_t>(kCount, kUntouched)));
  std::vector<AffineArguments> args;
  for (uint32_t k = 0; k < kChain; ++k)
    args.push_back({buffers[k].deviceAddress(), buffers[k + 1].deviceAddress(), 3, static_cast<int32_t>(k), kCount, 0});
  std::vector<SubmittedDispatches> submitted;
  for (uint32_t k = 0; k < kChain; ++k) {
    Dispatch step{&*pipeline, bytesOf(args[k]), {kCount / 64, 1, 1}};
    Expected<SubmittedDispatches> one =
        submitDispatches(*device_, device_->queue(), std::span<const Dispatch>(&step, 1), k % 2 == 0);
    ASSERT_TRUE(one.ok()) << one.error().message();
    submitted.push_back(std::move(*one));
  }
  Expected<bool> early = submitted.front().wait(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  ASSERT_TRUE(early.ok()) << early.error().message();

  // The middle one from two threads at once, then the last, then the rest.
  auto finishes = [&](size_t k) {
    Expected<bool> finished = submitted[k].wait();
    return finished.ok() && *finished;
  };
  std::thread helper([&] { EXPECT_TRUE(finishes(kChain / 2)); });
  EXPECT_TRUE(finishes(kChain / 2));
  helper.join();
  for (size_t k = kChain; k-- > 0;) {
    Expected<bool> finished = submitted[k].wait();
    ASSERT_TRUE(finished.ok()) << finished.error().message();
    EXPECT_TRUE(*finished) << "submission " << k;
    Expected<std::vector<GpuTime>> times = submitted[k].times();
    ASSERT_TRUE(times.ok()) << times.error().message();
    ASSERT_EQ(times->size(), 1u);
    // Timed submissions have their times; the others none.
    EXPECT_EQ((*times)[0].nanoseconds.has_value(), k % 2 == 0) << "submission " << k;
  }
  Expected<bool> late = submitted.front().wait(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_TRUE(late.ok() && *late) << "a finished submission reports so past its deadline";

  std::vector<int32_t> expected = source;
  for (uint32_t k = 0; k < kChain; ++k)
    for (int32_t& value : expected) value = static_cast<int32_t>(3u * static_cast<uint32_t>(value) + k);
  Expected<std::vector<int32_t>> result = buffers.back().downloadValues<int32_t>(kCount);
  ASSERT_TRUE(result.ok()) << result.error().message();
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ((*result)[i], expected[i]) << "at " << i;
}

TEST_F(ExecutorDispatchTest, WrongPushConstantSizeIsAnError) {
  Expected<Pipeline> pipeline = affinePipeline(64);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();
  uint64_t tooSmall = 0;
  Expected<GpuTime> time = dispatch(*device_, *pipeline, bytesOf(tooSmall), 1);
  ASSERT_FALSE(time.ok());
  EXPECT_NE(time.error().message().find("push constants"), std::string::npos) << time.error().message();
}

TEST_F(ExecutorDispatchTest, TooManyWorkGroupsIsAnError) {
  Expected<Pipeline> pipeline = affinePipeline(64);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();
  AffineArguments args{};
  uint32_t limit = device_->info().limits.maxComputeWorkGroupCount[1];
  ASSERT_LT(limit, UINT32_MAX);
  Expected<GpuTime> time = dispatch(*device_, *pipeline, bytesOf(args), 1, limit + 1);
  ASSERT_FALSE(time.ok());
  EXPECT_NE(time.error().message().find("maxComputeWorkGroupCount"), std::string::npos) << time.error().message();
}

TEST_F(ExecutorDispatchTest, InvalidSpirvIsAnErrorNotACrash) {
  std::vector<std::vector<uint32_t>> broken = {
      {},
      {0xdeadbeef, 0x00010500, 0, 10, 0},
      // A valid header followed by an instruction that runs past the end.
      {0x07230203, 0x00010500, 0, 10, 0, (20u << 16) | 17u, 1},
      // The test shader with its body cut off.
      std::vector<uint32_t>(affineWords_.begin(), affineWords_.begin() + affineWords_.size() / 2),
  };
  for (const std::vector<uint32_t>& words : broken) {
    SCOPED_TRACE(std::to_string(words.size()) + " words");
    PipelineDesc desc;
    desc.spirv = words;
    Expected<Pipeline> pipeline = Pipeline::create(*device_, desc);
    ASSERT_FALSE(pipeline.ok());
    EXPECT_NE(pipeline.error().message().find("SPIR-V"), std::string::npos) << pipeline.error().message();
  }
}

TEST_F(ExecutorDispatchTest, MissingEntryPointIsAnError) {
  PipelineDesc desc;
  desc.spirv = affineWords_;
  desc.entryPoint = "affine";
  desc.pushConstantSize = sizeof(AffineArguments);
  Expected<Pipeline> pipeline = Pipeline::create(*device_, desc);
  ASSERT_FALSE(pipeline.ok());
  EXPECT_NE(pipeline.error().message().find("no GLCompute entry point named 'affine' (it has: main)"),
            std::string::npos)
      << pipeline.error().message();
}

TEST_F(ExecutorDispatchTest, BadPipelineDescriptionsAreErrors) {
  PipelineDesc desc;
  desc.spirv = affineWords_;
  desc.pushConstantSize = 30;
  EXPECT_FALSE(Pipeline::create(*device_, desc).ok());
  desc.pushConstantSize = device_->info().limits.maxPushConstantsSize + 4;
  EXPECT_FALSE(Pipeline::create(*device_, desc).ok());

  desc.pushConstantSize = sizeof(AffineArguments);
  desc.specializationConstants = {{0, std::vector<std::byte>(3)}};
  EXPECT_FALSE(Pipeline::create(*device_, desc).ok());
  desc.specializationConstants = {SpecializationConstant::of<uint32_t>(0, 8),
                                  SpecializationConstant::of<uint32_t>(0, 16)};
  EXPECT_FALSE(Pipeline::create(*device_, desc).ok());

  desc.specializationConstants = {};
  desc.requiredSubgroupSize = 3;
  Expected<Pipeline> odd = Pipeline::create(*device_, desc);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.error().message().find("subgroup"), std::string::npos) << odd.error().message();
}

TEST_F(ExecutorDispatchTest, PipelineStatisticsComeFromTheDriverWhereItReportsThem) {
  PipelineDesc desc;
  desc.spirv = affineWords_;
  desc.pushConstantSize = sizeof(AffineArguments);
  Expected<Pipeline> uncaptured = Pipeline::create(*device_, desc);
  ASSERT_TRUE(uncaptured.ok()) << uncaptured.error().message();
  EXPECT_FALSE(uncaptured->statistics().ok());

  desc.captureStatistics = true;
  Expected<Pipeline> pipeline = Pipeline::create(*device_, desc);
  if (!device_->info().features.pipelineExecutableInfo) {
    ASSERT_FALSE(pipeline.ok());
    EXPECT_NE(pipeline.error().message().find("pipeline_executable_properties"), std::string::npos)
        << pipeline.error().message();
    return;
  }
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();
  Expected<std::vector<std::string>> statistics = pipeline->statistics();
  ASSERT_TRUE(statistics.ok()) << statistics.error().message();
  EXPECT_FALSE(statistics->empty());
  for (const std::string& line : *statistics) EXPECT_NE(line.find(" = "), std::string::npos) << line;
}

TEST_F(ExecutorDispatchTest, RequiredSubgroupSizeAndFullSubgroupsHold) {
  const SubgroupInfo& subgroup = device_->info().subgroup;
  if (!subgroup.requiredSizeInCompute || !subgroup.computeFullSubgroups) {
    GTEST_SKIP() << device_->info().name << " cannot require subgroup sizes or full subgroups";
  }
  std::vector<uint32_t> words = shaderWords("subgroup_shape");
  constexpr uint32_t kLocalSize = 128;  // A multiple of every subgroup size up to 128.
  constexpr uint32_t kGroups = 3;
  for (uint32_t size = subgroup.minSize; size <= subgroup.maxSize; size *= 2) {
    SCOPED_TRACE("subgroup size " + std::to_string(size));
    PipelineDesc desc;
    desc.spirv = words;
    desc.specializationConstants = {SpecializationConstant::of<uint32_t>(0, kLocalSize)};
    desc.pushConstantSize = sizeof(VkDeviceAddress);
    desc.requiredSubgroupSize = size;
    desc.requireFullSubgroups = true;
    Expected<Pipeline> pipeline = Pipeline::create(*device_, desc);
    ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();

    Expected<Buffer> shape = Buffer::create(*device_, kLocalSize * kGroups * 2 * sizeof(uint32_t));
    ASSERT_TRUE(shape.ok()) << shape.error().message();
    VkDeviceAddress address = shape->deviceAddress();
    Expected<GpuTime> time = dispatch(*device_, *pipeline, bytesOf(address), kGroups);
    ASSERT_TRUE(time.ok()) << time.error().message();
    Expected<std::vector<uint32_t>> values = shape->downloadValues<uint32_t>(kLocalSize * kGroups * 2);
    ASSERT_TRUE(values.ok()) << values.error().message();
    for (uint32_t i = 0; i < kLocalSize * kGroups; ++i) {
      ASSERT_EQ((*values)[2 * i], size) << "gl_SubgroupSize of invocation " << i;
      ASSERT_EQ((*values)[2 * i + 1], size) << "active invocations in the subgroup of " << i;
    }
  }
}

}  // namespace
}  // namespace cl2vk::vulkan
