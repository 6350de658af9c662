// Released buffers' memory is recycled (buffer_cache.h): the next buffer or staging copy of the
// same shape takes it instead of allocating, shapes are never mixed, contents written through a
// recycled buffer read back right, and the cache stays within its bounds. Counted with
// Device::memoryAllocations (every vkAllocateMemory a buffer makes).
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace cl2vk::vulkan {
namespace {

class BufferCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<std::unique_ptr<Device>> opened = Device::open();
    ASSERT_TRUE(opened.ok()) << opened.error().message();
    device_ = std::move(*opened);
    // Opening a CPU device runs the loop-limit probe, whose buffers are kept: start empty.
    device_->bufferCache().clear();
  }
  void TearDown() override {
    if (!device_) return;
    for (const std::string& message : device_->validationMessages()) ADD_FAILURE() << message;
  }

  Buffer create(VkDeviceSize size) {
    Expected<Buffer> buffer = Buffer::create(*device_, size);
    EXPECT_TRUE(buffer.ok()) << buffer.error().message();
    return std::move(*buffer);
  }

  // `size` bytes that differ from their neighbours and from one seed to the next.
  static std::vector<std::byte> pattern(size_t size, unsigned seed) {
    std::vector<std::byte> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = std::byte(static_cast<unsigned char>(i * 13 + seed * 101 + 1));
    return bytes;
  }

  uint64_t allocations() const { return device_->memoryAllocations(); }

  std::unique_ptr<Device> device_;
};

// A CPU device keeps the defaults; a GPU 1/16 of its device-local heap within [64 MiB, 1 GiB], and
// buffers up to a quarter of that (an 80 GB H100: 1 GiB, buffers up to 256 MiB).
TEST(BufferCacheLimits, FollowTheDeviceLocalHeapOnGpus) {
  constexpr VkDeviceSize kMiB = VkDeviceSize{1} << 20;
  BufferCache::Limits cpu = BufferCache::limitsFor(VK_PHYSICAL_DEVICE_TYPE_CPU, 64 * 1024 * kMiB);
  EXPECT_EQ(cpu.maxKeptBytes, BufferCache::kMaxKeptBytes);
  EXPECT_EQ(cpu.largestKept, BufferCache::kLargestKept);
  BufferCache::Limits h100 = BufferCache::limitsFor(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 81559 * kMiB);
  EXPECT_EQ(h100.maxKeptBytes, 1024 * kMiB);
  EXPECT_EQ(h100.largestKept, 256 * kMiB);
  BufferCache::Limits small = BufferCache::limitsFor(VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU, 4096 * kMiB);
  EXPECT_EQ(small.maxKeptBytes, 256 * kMiB);
  EXPECT_EQ(small.largestKept, 64 * kMiB);
  BufferCache::Limits tiny = BufferCache::limitsFor(VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, 256 * kMiB);
  EXPECT_EQ(tiny.maxKeptBytes, BufferCache::kMaxKeptBytes);
  EXPECT_EQ(tiny.largestKept, 16 * kMiB);
}

TEST_F(BufferCacheTest, SizeClassesRoundUpByAQuarterAtMost) {
  EXPECT_EQ(BufferCache::capacityFor(1), 256u);
  EXPECT_EQ(BufferCache::capacityFor(256), 256u);
  EXPECT_EQ(BufferCache::capacityFor(257), 512u);
  EXPECT_EQ(BufferCache::capacityFor(4096), 4096u);
  EXPECT_EQ(BufferCache::capacityFor(4097), 5120u);
  EXPECT_EQ(BufferCache::capacityFor(1000003), 1048576u);
  EXPECT_EQ(BufferCache::capacityFor(BufferCache::kLargestKept), BufferCache::kLargestKept);
  EXPECT_EQ(BufferCache::capacityFor(BufferCache::kLargestKept + 1), BufferCache::kLargestKept + 1);
  for (VkDeviceSize size = 1; size < (VkDeviceSize{1} << 22); size = size * 3 / 2 + 1) {
    VkDeviceSize capacity = BufferCache::capacityFor(size);
    EXPECT_GE(capacity, size);
    EXPECT_LE(capacity, size + std::max<VkDeviceSize>(255, size / 4)) << size;
  }
}

TEST_F(BufferCacheTest, ReleasedBufferIsReusedBySameShape) {
  VkBuffer handle = VK_NULL_HANDLE;
  VkDeviceAddress address = 0;
  {
    Buffer first = create(4096);
    handle = first.handle();
    address = first.deviceAddress();
  }
  EXPECT_EQ(device_->bufferCache().kept(), 1u);
  uint64_t before = allocations();
  Buffer second = create(4000);  // the same size class
  EXPECT_EQ(allocations(), before);
  EXPECT_EQ(second.handle(), handle);
  EXPECT_EQ(second.deviceAddress(), address);
  EXPECT_EQ(second.size(), 4000u) << "the requested size, not the size class";
  EXPECT_EQ(device_->bufferCache().kept(), 0u);
  // The range check is the requested size's.
  std::vector<std::byte> bytes(8);
  EXPECT_FALSE(second.upload(bytes, 3996).ok());
}

TEST_F(BufferCacheTest, HundredCreateWriteReadReleaseCyclesAllocateAHandful) {
  uint64_t before = allocations();
  for (unsigned cycle = 0; cycle < 100; ++cycle) {
    Buffer buffer = create(4096);
    std::vector<std::byte> sent = pattern(4096, cycle);
    ASSERT_TRUE(buffer.upload(sent).ok());
    std::vector<std::byte> received(4096);
    ASSERT_TRUE(buffer.download(received).ok());
    ASSERT_EQ(received, sent) << "cycle " << cycle;
    // Part of it too: a staging buffer of another size class.
    std::vector<std::byte> part(100);
    ASSERT_TRUE(buffer.download(part, 1000).ok());
    ASSERT_EQ(part, std::vector<std::byte>(sent.begin() + 1000, sent.begin() + 1100)) << "cycle " << cycle;
  }
  // The buffer, an upload staging buffer and two download ones, each allocated once.
  EXPECT_EQ(allocations() - before, 4u);
}

TEST_F(BufferCacheTest, ShapesAreNotMixed) {
  Buffer kept = create(4096);
  ASSERT_TRUE(kept.upload(pattern(4096, 1)).ok());  // leaves an upload staging buffer of 4096
  { Buffer released = create(4096); }               // leaves a device buffer of 4096
  ASSERT_EQ(device_->bufferCache().kept(), 2u);

  // Other size classes allocate.
  uint64_t before = allocations();
  Buffer larger = create(8192);
  EXPECT_EQ(allocations(), before + 1);
  Buffer smaller = create(2048);
  EXPECT_EQ(allocations(), before + 2);
  // A download needs a staging buffer the host reads: neither the device buffer nor the upload one.
  std::vector<std::byte> back(4096);
  ASSERT_TRUE(kept.download(back).ok());
  EXPECT_EQ(back, pattern(4096, 1));
  EXPECT_EQ(allocations(), before + 3);
  // The upload's staging buffer and the released device buffer are each taken by their own kind.
  ASSERT_TRUE(kept.upload(pattern(4096, 2)).ok());
  EXPECT_EQ(allocations(), before + 3);
  Buffer again = create(4096);
  EXPECT_EQ(allocations(), before + 3);
  EXPECT_NE(again.deviceAddress(), 0u);
  ASSERT_TRUE(again.upload(pattern(4096, 3)).ok());
  ASSERT_TRUE(kept.download(back).ok());
  EXPECT_EQ(back, pattern(4096, 2)) << "the buffers do not share memory";
}

TEST_F(BufferCacheTest, LargeBuffersAreNotKept) {
  const VkDeviceSize large = BufferCache::kLargestKept + 4096;
  { Buffer buffer = create(large); }
  EXPECT_EQ(device_->bufferCache().kept(), 0u);
  uint64_t before = allocations();
  Buffer again = create(large);
  EXPECT_EQ(allocations(), before + 1);
}

TEST_F(BufferCacheTest, StaysWithinItsBounds) {
  {
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < BufferCache::kMaxKept + 10; ++i) buffers.push_back(create(1024));
  }
  EXPECT_EQ(device_->bufferCache().kept(), BufferCache::kMaxKept);
  EXPECT_LE(device_->bufferCache().keptBytes(), BufferCache::kMaxKeptBytes);
  {
    // Twenty buffers of 4 MiB (the largest kept): only the newest 64 MiB stay.
    std::vector<Buffer> buffers;
    for (size_t i = 0; i < 20; ++i) buffers.push_back(create(BufferCache::kLargestKept));
  }
  EXPECT_LE(device_->bufferCache().keptBytes(), BufferCache::kMaxKeptBytes);
  EXPECT_GE(device_->bufferCache().keptBytes(), BufferCache::kMaxKeptBytes - BufferCache::kLargestKept);
  size_t kept = device_->bufferCache().kept();
  EXPECT_EQ(device_->bufferCache().clear(), kept);
  EXPECT_EQ(device_->bufferCache().kept(), 0u);
  EXPECT_EQ(device_->bufferCache().keptBytes(), 0u);
}

}  // namespace
}  // namespace cl2vk::vulkan
