// Buffers: device addresses, and uploads and downloads through staging copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <numeric>
#include <vector>

#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace cl2vk::vulkan {
namespace {

class ExecutorBufferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Expected<std::unique_ptr<Device>> opened = Device::open();
    ASSERT_TRUE(opened.ok()) << opened.error().message();
    device_ = std::move(*opened);
  }
  void TearDown() override {
    if (!device_) return;
    for (const std::string& message : device_->validationMessages()) ADD_FAILURE() << message;
  }

  // `size` bytes that differ from their neighbours and from a zero-filled buffer.
  static std::vector<std::byte> pattern(size_t size, unsigned seed) {
    std::vector<std::byte> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = std::byte(static_cast<unsigned char>(i * 31 + seed));
    return bytes;
  }

  std::unique_ptr<Device> device_;
};

TEST_F(ExecutorBufferTest, RoundTripsOddSizes) {
  for (size_t size : {size_t{1}, size_t{3}, size_t{7}, size_t{13}, size_t{4099}, size_t{65537}, size_t{1000003}}) {
    SCOPED_TRACE("size " + std::to_string(size));
    Expected<Buffer> buffer = Buffer::create(*device_, size);
    ASSERT_TRUE(buffer.ok()) << buffer.error().message();
    EXPECT_EQ(buffer->size(), size);
    std::vector<std::byte> sent = pattern(size, static_cast<unsigned>(size));
    Status uploaded = buffer->upload(sent);
    ASSERT_TRUE(uploaded.ok()) << uploaded.error().message();
    std::vector<std::byte> received(size);
    Status downloaded = buffer->download(received);
    ASSERT_TRUE(downloaded.ok()) << downloaded.error().message();
    EXPECT_EQ(received, sent);
  }
}

TEST_F(ExecutorBufferTest, UploadsAndDownloadsAtOffsets) {
  Expected<Buffer> buffer = Buffer::create(*device_, 101);
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  std::vector<std::byte> whole = pattern(101, 5);
  ASSERT_TRUE(buffer->upload(whole).ok());
  std::vector<std::byte> middle = pattern(17, 200);
  ASSERT_TRUE(buffer->upload(middle, 41).ok());
  std::copy(middle.begin(), middle.end(), whole.begin() + 41);

  std::vector<std::byte> tail(23);
  ASSERT_TRUE(buffer->download(tail, 78).ok());
  EXPECT_EQ(tail, std::vector<std::byte>(whole.begin() + 78, whole.end()));
  std::vector<std::byte> all(101);
  ASSERT_TRUE(buffer->download(all).ok());
  EXPECT_EQ(all, whole);
}

TEST_F(ExecutorBufferTest, TypedValuesRoundTrip) {
  std::vector<int64_t> values(333);
  std::iota(values.begin(), values.end(), -100);
  Expected<Buffer> buffer = Buffer::create(*device_, values.size() * sizeof(int64_t));
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  ASSERT_TRUE(buffer->uploadValues(std::span<const int64_t>(values)).ok());
  Expected<std::vector<int64_t>> back = buffer->downloadValues<int64_t>(values.size());
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, values);
}

TEST_F(ExecutorBufferTest, RangesOutsideTheBufferAreErrors) {
  Expected<Buffer> buffer = Buffer::create(*device_, 16);
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  std::vector<std::byte> bytes(8);
  Status past = buffer->upload(bytes, 9);
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.error().message().find("outside a buffer of 16 bytes"), std::string::npos) << past.error().message();
  EXPECT_FALSE(buffer->download(bytes, ~VkDeviceSize{0}).ok());
  EXPECT_TRUE(buffer->upload(bytes, 8).ok());
}

TEST_F(ExecutorBufferTest, ZeroSizedBufferIsAnError) {
  Expected<Buffer> buffer = Buffer::create(*device_, 0);
  ASSERT_FALSE(buffer.ok());
  EXPECT_NE(buffer.error().message().find("0 bytes"), std::string::npos) << buffer.error().message();
}

// The largest size is within the limits, and a buffer of it is allocated and used at its far
// end (SwiftShader pads every buffer, so its maxMemoryAllocationSize itself cannot be allocated).
TEST_F(ExecutorBufferTest, TheLargestSizeIsAllocated) {
  Expected<VkDeviceSize> largest = Buffer::largestSize(*device_);
  ASSERT_TRUE(largest.ok()) << largest.error().message();
  const DeviceLimits& limits = device_->info().limits;
  ASSERT_GT(*largest, 0u);
  EXPECT_LE(*largest, limits.maxMemoryAllocationSize);
  if (limits.maxBufferSize != 0) {
    EXPECT_LE(*largest, limits.maxBufferSize);
  }
  // A page less than the limit at most: the padding drivers add is a few bytes.
  EXPECT_GE(*largest + 4096, std::min(limits.maxMemoryAllocationSize,
                                      limits.maxBufferSize ? limits.maxBufferSize : limits.maxMemoryAllocationSize));
  Expected<Buffer> buffer = Buffer::create(*device_, *largest);
  if (!buffer && device_->info().type != VK_PHYSICAL_DEVICE_TYPE_CPU) {
    GTEST_SKIP() << "the GPU's memory cannot hold " << *largest << " bytes now: " << buffer.error().message();
  }
  ASSERT_TRUE(buffer.ok()) << *largest << " bytes: " << buffer.error().message();
  std::vector<std::byte> bytes = pattern(256, 9);
  ASSERT_TRUE(buffer->upload(bytes, *largest - bytes.size()).ok());
  Expected<std::vector<std::byte>> back = buffer->downloadValues<std::byte>(bytes.size(), *largest - bytes.size());
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(*back, bytes);
}

// Transfers in pieces: with 1000-byte staging buffers, transfers of a few kilobytes take many
// pieces, three in flight, and end with a short one; every byte lands where it belongs, at offsets
// that are not multiples of the piece, and ranges beside the transfer keep what they held.
TEST(StagedTransfers, ManyPiecesInFlightLandInOrder) {
  DeviceOptions options = DeviceOptions::fromEnvironment();
  options.stagingChunk = 1000;
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  ASSERT_TRUE(device.ok()) << device.error().message();
  ASSERT_EQ((*device)->stagingChunk(), 1000u);
  constexpr size_t kSize = 10007;
  Expected<Buffer> buffer = Buffer::create(**device, kSize);
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  std::vector<std::byte> whole(kSize);
  for (size_t i = 0; i < kSize; ++i) whole[i] = std::byte(static_cast<unsigned char>(i * 7 + i / 251));
  ASSERT_TRUE(buffer->upload(whole).ok());
  for (size_t size : {size_t{1}, size_t{999}, size_t{1000}, size_t{1001}, size_t{3000}, size_t{4321}}) {
    SCOPED_TRACE("size " + std::to_string(size));
    size_t offset = 1234;
    std::vector<std::byte> piece(size);
    for (size_t i = 0; i < size; ++i) piece[i] = std::byte(static_cast<unsigned char>(255 - i % 253));
    ASSERT_TRUE(buffer->upload(piece, offset).ok());
    std::copy(piece.begin(), piece.end(), whole.begin() + static_cast<std::ptrdiff_t>(offset));
    std::vector<std::byte> back(size);
    ASSERT_TRUE(buffer->download(back, offset).ok());
    EXPECT_EQ(back, piece);
    std::vector<std::byte> all(kSize);
    ASSERT_TRUE(buffer->download(all).ok());
    EXPECT_EQ(all, whole);
  }
  for (const std::string& message : (*device)->validationMessages()) ADD_FAILURE() << message;
}

// Host memory the device copies into and out of: the host sees the device's copy once copyFrom
// returns, and the device copies what the host wrote.
TEST_F(ExecutorBufferTest, HostMemoryIsCopiedIntoAndOutOfByTheDevice) {
  constexpr size_t kSize = 4099;
  Expected<Buffer> host = Buffer::createHostMemory(*device_, kSize);
  ASSERT_TRUE(host.ok()) << host.error().message();
  ASSERT_NE(host->hostAddress(), nullptr);
  Expected<Buffer> buffer = Buffer::create(*device_, kSize);
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  std::vector<std::byte> sent = pattern(kSize, 3);
  ASSERT_TRUE(buffer->upload(sent).ok());
  ASSERT_TRUE(host->copyFrom(*buffer, 0, 0, kSize).ok());
  EXPECT_TRUE(std::equal(sent.begin(), sent.end(), host->hostAddress()));

  std::vector<std::byte> changed = pattern(100, 77);
  std::copy(changed.begin(), changed.end(), host->hostAddress() + 17);
  ASSERT_TRUE(buffer->copyFrom(*host, 17, 517, changed.size()).ok());
  std::copy(changed.begin(), changed.end(), sent.begin() + 517);
  std::vector<std::byte> back(kSize);
  ASSERT_TRUE(buffer->download(back).ok());
  EXPECT_EQ(back, sent);
}

// Imported host memory (VK_EXT_external_memory_host) is the buffer's memory: what the device
// writes the host reads there, what the host writes the device reads, at a pointer past the start
// of a page (the pages around it are imported). A pointer the device cannot align a buffer to, or
// a device without the extension, is an error, not a copy.
TEST_F(ExecutorBufferTest, ImportedHostMemoryIsTheBuffersMemory) {
  const VkDeviceSize page = device_->info().importedHostPointerAlignment;
  constexpr size_t kSize = 10007;
  std::vector<std::byte> storage(kSize + 4 * 65536);
  if (page == 0) {
    Expected<Buffer> refused = Buffer::importHostMemory(*device_, storage.data(), kSize);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message().find("VK_EXT_external_memory_host"), std::string::npos);
    GTEST_SKIP() << device_->info().name << " has no VK_EXT_external_memory_host: only its refusal was checked";
  }
  ASSERT_LE(page, 65536u);
  auto start = reinterpret_cast<uintptr_t>(storage.data());
  auto* host = reinterpret_cast<std::byte*>((start + page - 1) / page * page + 1024);
  Expected<Buffer> imported = Buffer::importHostMemory(*device_, host, kSize);
  ASSERT_TRUE(imported.ok()) << imported.error().message();
  EXPECT_EQ(imported->hostAddress(), host);
  EXPECT_NE(imported->deviceAddress(), 0u);
  ASSERT_TRUE(imported->fill(0x01020304u, 0, 4000).ok());
  for (size_t i = 0; i < 4000; i += 4) ASSERT_EQ(host[i], std::byte{4}) << i;
  std::vector<std::byte> sent = pattern(kSize, 5);
  std::copy(sent.begin(), sent.end(), host);
  std::vector<std::byte> back(kSize);
  ASSERT_TRUE(imported->download(back).ok());
  EXPECT_EQ(back, sent);

  Expected<Buffer> misaligned = Buffer::importHostMemory(*device_, host + 4, kSize);
  ASSERT_FALSE(misaligned.ok());
  EXPECT_NE(misaligned.error().message().find("is not aligned"), std::string::npos) << misaligned.error().message();
}

// write() and read() reach the same contents as upload() and download(), directly where the host
// reaches the memory: on a CPU device, every buffer.
TEST_F(ExecutorBufferTest, WritesAndReadsMeetUploadsAndDownloads) {
  constexpr size_t kSize = 3001;
  Expected<Buffer> buffer = Buffer::create(*device_, kSize);
  ASSERT_TRUE(buffer.ok()) << buffer.error().message();
  EXPECT_EQ(buffer->hostAddress() != nullptr, device_->info().type == VK_PHYSICAL_DEVICE_TYPE_CPU);
  std::vector<std::byte> sent = pattern(kSize, 11);
  ASSERT_TRUE(buffer->write(sent, 0).ok());
  std::vector<std::byte> back(kSize);
  ASSERT_TRUE(buffer->download(back).ok());
  EXPECT_EQ(back, sent);
  std::vector<std::byte> middle = pattern(50, 99);
  ASSERT_TRUE(buffer->upload(middle, 1000).ok());
  std::vector<std::byte> read(50);
  ASSERT_TRUE(buffer->read(read, 1000).ok());
  EXPECT_EQ(read, middle);
  EXPECT_FALSE(buffer->write(middle, kSize - 49).ok());
  EXPECT_FALSE(buffer->read(read, kSize).ok());
}

TEST_F(ExecutorBufferTest, BuffersHaveDistinctDeviceAddresses) {
  Expected<Buffer> first = Buffer::create(*device_, 256);
  Expected<Buffer> second = Buffer::create(*device_, 256);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE(first->deviceAddress(), 0u);
  EXPECT_NE(second->deviceAddress(), 0u);
  // The ranges do not overlap.
  EXPECT_TRUE(first->deviceAddress() + 256 <= second->deviceAddress() ||
              second->deviceAddress() + 256 <= first->deviceAddress());

  // A moved buffer keeps its address and its contents; the source is left empty.
  VkDeviceAddress address = first->deviceAddress();
  std::vector<std::byte> bytes = pattern(256, 9);
  ASSERT_TRUE(first->upload(bytes).ok());
  Buffer moved = std::move(*first);
  EXPECT_EQ(moved.deviceAddress(), address);
  EXPECT_EQ(first->handle(), VK_NULL_HANDLE);
  std::vector<std::byte> back(256);
  ASSERT_TRUE(moved.download(back).ok());
  EXPECT_EQ(back, bytes);
}

}  // namespace
}  // namespace cl2vk::vulkan
