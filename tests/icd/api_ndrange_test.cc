// NDRanges through clEnqueueNDRangeKernel: 1, 2 and 3 dimensions, global offsets, a local size
// the runtime picks, non-uniform work-groups, and when uniform ones are required; every
// work-item's ids compared with the CPU's.

#include <array>
#include <cstdint>
#include <limits>
#include <sstream>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

// Every work-item writes its ids, kValuesPerItem of them, at its linear position in the range.
constexpr size_t kValuesPerItem = 19;
constexpr const char* kIds = R"(
kernel void ids(global uint* out) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  global uint* o = out + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 19;
  for (uint d = 0; d < 3; ++d) {
    o[d] = (uint)get_global_id(d);
    o[3 + d] = (uint)get_local_id(d);
    o[6 + d] = (uint)get_group_id(d);
    o[9 + d] = (uint)get_local_size(d);
#if __OPENCL_C_VERSION__ >= 200
    o[12 + d] = (uint)get_enqueued_local_size(d);
#else
    o[12 + d] = (uint)get_local_size(d);
#endif
    o[15 + d] = (uint)get_num_groups(d);
  }
  o[18] = get_work_dim();
}
)";

struct Range {
  cl_uint dims;
  std::array<size_t, 3> global;
  std::array<size_t, 3> offset;
  std::array<size_t, 3> local;  // all 0: NULL, the runtime picks

  size_t items() const { return global[0] * global[1] * global[2]; }
  std::string describe() const {
    std::ostringstream s;
    s << dims << "D global " << global[0] << "x" << global[1] << "x" << global[2] << " offset " << offset[0] << ","
      << offset[1] << "," << offset[2] << " local " << local[0] << "x" << local[1] << "x" << local[2];
    return s.str();
  }
};

// What the ids kernel writes over `range`, whose local size is given.
std::vector<cl_uint> expectedIds(const Range& r) {
  std::vector<cl_uint> values(r.items() * kValuesPerItem);
  for (size_t z = 0; z < r.global[2]; ++z)
    for (size_t y = 0; y < r.global[1]; ++y)
      for (size_t x = 0; x < r.global[0]; ++x) {
        cl_uint* o = values.data() + ((z * r.global[1] + y) * r.global[0] + x) * kValuesPerItem;
        std::array<size_t, 3> id = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          size_t group = id[d] / r.local[d];
          o[d] = static_cast<cl_uint>(r.offset[d] + id[d]);
          o[3 + d] = static_cast<cl_uint>(id[d] % r.local[d]);
          o[6 + d] = static_cast<cl_uint>(group);
          o[9 + d] = static_cast<cl_uint>(std::min(r.local[d], r.global[d] - group * r.local[d]));
          o[12 + d] = static_cast<cl_uint>(r.local[d]);
          o[15 + d] = static_cast<cl_uint>((r.global[d] + r.local[d] - 1) / r.local[d]);
        }
        o[18] = r.dims;
      }
  return values;
}

class IcdNDRange : public IcdTest {
 protected:
  // Runs `kernel` over `range`; returns what it wrote, or nothing when the enqueue failed.
  std::vector<cl_uint> runIds(cl_kernel kernel, const Range& r) {
    Buffer out = bufferOf(std::vector<cl_uint>(r.items() * kValuesPerItem, 0xdeadbeef));
    setArgs(kernel, out);
    bool localGiven = r.local[0] != 0;
    cl_int status = clEnqueueNDRangeKernel(queue_, kernel, r.dims, r.offset.data(), r.global.data(),
                                           localGiven ? r.local.data() : nullptr, 0, nullptr, nullptr);
    EXPECT_CL_SUCCESS(status) << r.describe();
    if (status != CL_SUCCESS) return {};
    return read<cl_uint>(out, r.items() * kValuesPerItem);
  }

  void expectIds(cl_kernel kernel, const Range& r) {
    std::vector<cl_uint> got = runIds(kernel, r), expected = expectedIds(r);
    ASSERT_EQ(got.size(), expected.size()) << r.describe();
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], expected[i]) << r.describe() << ": work-item " << i / kValuesPerItem << " value "
                                     << i % kValuesPerItem
                                     << " (0-2 global id, 3-5 local id, 6-8 group id, 9-11 local size, 12-14 enqueued "
                                        "local size, 15-17 number of groups, 18 work dim)";
    }
  }

  // With a local size the runtime chose: every work-item once, with ids consistent with one
  // enqueued local size per dimension; `uniform` says the work-groups must all be that size.
  void expectConsistentIds(cl_kernel kernel, const Range& r, bool uniform) {
    std::vector<cl_uint> got = runIds(kernel, r);
    ASSERT_EQ(got.size(), r.items() * kValuesPerItem) << r.describe();
    for (size_t item = 0; item < r.items(); ++item) {
      const cl_uint* o = got.data() + item * kValuesPerItem;
      std::array<size_t, 3> id = {item % r.global[0], item / r.global[0] % r.global[1],
                                  item / (r.global[0] * r.global[1])};
      for (int d = 0; d < 3; ++d) {
        size_t enqueued = got[12 + d];  // the first work-item's, which every work-item must share
        ASSERT_GT(enqueued, 0u);
        ASSERT_EQ(o[d], r.offset[d] + id[d]) << r.describe() << " item " << item;
        ASSERT_EQ(o[12 + d], enqueued) << r.describe() << " item " << item;
        ASSERT_EQ(o[6 + d] * enqueued + o[3 + d], id[d]) << r.describe() << " item " << item;
        ASSERT_EQ(o[9 + d], std::min(enqueued, r.global[d] - o[6 + d] * enqueued)) << r.describe() << " item " << item;
        if (uniform) {
          ASSERT_EQ(r.global[d] % enqueued, 0u) << r.describe() << ": non-uniform local size " << enqueued;
        }
      }
    }
  }
};

TEST_F(IcdNDRange, OneTwoAndThreeDimensionsWithOffsets) {
  Program program = buildSource(kIds, "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "ids");
  expectIds(kernel, {1, {100, 1, 1}, {7, 0, 0}, {20, 1, 1}});
  expectIds(kernel, {2, {24, 10, 1}, {3, 5, 0}, {8, 2, 1}});
  expectIds(kernel, {3, {8, 6, 4}, {1, 2, 3}, {4, 3, 2}});
}

TEST_F(IcdNDRange, NonUniformWorkGroupsEndWithASmallerGroup) {
  Program program = buildSource(kIds, "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "ids");
  expectIds(kernel, {1, {1000, 1, 1}, {0, 0, 0}, {64, 1, 1}});
  expectIds(kernel, {2, {37, 10, 1}, {2, 1, 0}, {8, 4, 1}});
  expectIds(kernel, {3, {5, 7, 3}, {0, 4, 1}, {2, 3, 2}});
}

TEST_F(IcdNDRange, MoreWorkGroupsThanOneVulkanDispatchHolds) {
  Program program = buildSource(kIds, "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "ids");
  expectIds(kernel, {1, {140000, 1, 1}, {3, 0, 0}, {2, 1, 1}});  // 70000 groups: Vulkan guarantees 65535
}

TEST_F(IcdNDRange, RuntimeChosenLocalSizeCoversTheRange) {
  Program program20 = buildSource(kIds, "-cl-std=CL2.0");
  ASSERT_TRUE(program20.get());
  Kernel kernel20 = createKernel(program20, "ids");
  expectConsistentIds(kernel20, {1, {1000, 1, 1}, {5, 0, 0}, {0, 0, 0}}, false);
  expectConsistentIds(kernel20, {2, {30, 7, 1}, {0, 0, 0}, {0, 0, 0}}, false);
  // OpenCL C 1.2 has no non-uniform work-groups: the runtime must pick a size that divides 997.
  Program program12 = buildSource(kIds, "");
  ASSERT_TRUE(program12.get());
  Kernel kernel12 = createKernel(program12, "ids");
  expectConsistentIds(kernel12, {1, {997, 1, 1}, {0, 0, 0}, {0, 0, 0}}, true);
  expectConsistentIds(kernel12, {3, {6, 10, 3}, {1, 1, 1}, {0, 0, 0}}, true);
}

// Uniform work-groups are required for OpenCL C 1.2 programs and with -cl-uniform-work-group-size.
TEST_F(IcdNDRange, UniformWorkGroupsWhenRequired) {
  const size_t global = 1000, local = 64, dividing = 1024;
  for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL2.0 -cl-uniform-work-group-size"}) {
    Program program = buildSource(kIds, options);
    ASSERT_TRUE(program.get()) << options;
    Kernel kernel = createKernel(program, "ids");
    Buffer out = createBuffer(dividing * kValuesPerItem * sizeof(cl_uint));
    setArgs(kernel, out);
    EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                    clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr))
        << "options \"" << options << "\"";
    EXPECT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &dividing, &local, 0, nullptr, nullptr))
        << "options \"" << options << "\"";
  }
  EXPECT_CL_SUCCESS(clFinish(queue_));
}

// Programs from SPIR-V allow non-uniform work-groups unless built with -cl-uniform-work-group-size.
TEST_F(IcdNDRange, ILProgramsAllowNonUniformWorkGroups) {
  Program program = buildCorpusModule("kernels/work_item_functions.O2.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "work_item_functions");
  const size_t global = 1000, local = 64;
  Buffer out = createBuffer(global * 8 * sizeof(cl_uint));
  setArgs(kernel, out);
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_uint> got = read<cl_uint>(out, global * 8);
  const cl_uint groups = (global + local - 1) / local, enqueued = local;
  for (cl_uint i = 0; i < global; ++i) {
    cl_uint group = i / enqueued, size = std::min<cl_uint>(enqueued, global - group * enqueued), localId = i % enqueued;
    std::vector<cl_uint> expected = {localId, size, group, groups, 1, enqueued, localId, i};
    ASSERT_EQ(std::vector<cl_uint>(got.begin() + i * 8, got.begin() + i * 8 + 8), expected) << "work-item " << i;
  }

  Program uniform = buildCorpusModule("kernels/work_item_functions.O2.spv", "-cl-uniform-work-group-size");
  ASSERT_TRUE(uniform.get());
  Kernel uniformKernel = createKernel(uniform, "work_item_functions");
  setArgs(uniformKernel, out);
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                  clEnqueueNDRangeKernel(queue_, uniformKernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
}

TEST_F(IcdNDRange, ILProgramWithOffsetsIn3D) {
  Program program = buildCorpusModule("kernels/indexing_2d_3d.O2.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "index_3d");
  const size_t global[3] = {5, 4, 3}, offset[3] = {2, 1, 7};
  Buffer out = createBuffer(60 * sizeof(cl_uint));
  setArgs(kernel, out);
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 3, offset, global, nullptr, 0, nullptr, nullptr));
  std::vector<cl_uint> got = read<cl_uint>(out, 60);
  for (size_t z = 0; z < 3; ++z)
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 5; ++x) {
        cl_uint expected = static_cast<cl_uint>((x + 2) + 100 * (y + 1) + 10000 * (z + 7));
        ASSERT_EQ(got[(z * 4 + y) * 5 + x], expected) << x << "," << y << "," << z;
      }
}

// A user's report: a 2D NDRange with a global offset writing where the offset says it must not.
// Each work-item marks the cell of a 2D image at its global id, the image larger than the range:
// every cell inside [offset, offset + size) is marked once, with the work-group that marked it,
// and none outside, for chosen and given local sizes, remainder groups in either dimension, a
// required work-group size, ids as size_t and as int, at -O2 and -O0, with launches enqueued
// back to back (batched into one submission) and read only at the end.
TEST_F(IcdNDRange, TwoDimensionalOffsetsWriteOnlyInsideTheRange) {
  constexpr const char* kMarks = R"(
kernel void mark(global int* out, int width) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * width + x] += 1 + (int)(get_group_id(0) + 100 * get_group_id(1));
}
kernel void mark_int(global int* out, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * width + x] += 1 + (int)(get_group_id(0) + 100 * get_group_id(1));
}
__attribute__((reqd_work_group_size(4, 2, 1))) kernel void mark_required(global int* out, int width) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * width + x] += 1 + (int)(get_group_id(0) + 100 * get_group_id(1));
}
)";
  constexpr cl_int kWidth = 150, kHeight = 40;
  struct Launch {
    const char* kernel;
    std::array<size_t, 2> offset, global, local;  // local {0, 0}: NULL, the runtime picks
  };
  const Launch launches[] = {
      {"mark", {2, 3}, {8, 4}, {0, 0}},           {"mark", {5, 0}, {130, 5}, {0, 0}},
      {"mark", {0, 7}, {67, 9}, {8, 4}},          {"mark", {31, 1}, {97, 13}, {16, 4}},
      {"mark_int", {1, 17}, {33, 17}, {0, 0}},    {"mark_int", {3, 5}, {10, 10}, {3, 3}},
      {"mark_required", {7, 2}, {12, 6}, {4, 2}},
  };
  for (const char* options : {"-cl-std=CL2.0", "-cl-std=CL2.0 -cl-opt-disable"}) {
    Program program = buildSource(kMarks, options);
    ASSERT_TRUE(program.get()) << options;
    std::vector<Buffer> images;
    for (const Launch& launch : launches) {
      Kernel kernel = createKernel(program, launch.kernel);
      images.push_back(bufferOf(std::vector<cl_int>(kWidth * kHeight, 0)));
      setArgs(kernel, images.back(), kWidth);
      bool given = launch.local[0] != 0;
      ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 2, launch.offset.data(), launch.global.data(),
                                               given ? launch.local.data() : nullptr, 0, nullptr, nullptr))
          << launch.kernel;
    }
    for (size_t i = 0; i < std::size(launches); ++i) {
      const Launch& launch = launches[i];
      std::vector<cl_int> image = read<cl_int>(images[i], kWidth * kHeight);
      std::array<size_t, 2> local = launch.local;
      if (local[0] == 0) {
        // The runtime chooses {L, 1}: L is where the first row's group id first changes.
        local = {launch.global[0], 1};
        for (size_t rx = 1; rx < launch.global[0]; ++rx) {
          if (image[launch.offset[1] * kWidth + launch.offset[0] + rx] != 1) {
            local[0] = rx;
            break;
          }
        }
      }
      for (cl_int y = 0; y < kHeight; ++y) {
        for (cl_int x = 0; x < kWidth; ++x) {
          size_t rx = x - launch.offset[0], ry = y - launch.offset[1];
          bool inside = x >= static_cast<cl_int>(launch.offset[0]) && rx < launch.global[0] &&
                        y >= static_cast<cl_int>(launch.offset[1]) && ry < launch.global[1];
          cl_int expected = inside ? 1 + static_cast<cl_int>(rx / local[0] + 100 * (ry / local[1])) : 0;
          ASSERT_EQ(image[y * kWidth + x], expected)
              << options << ", " << launch.kernel << " offset " << launch.offset[0] << "," << launch.offset[1]
              << " global " << launch.global[0] << "x" << launch.global[1] << ": cell (" << x << ", " << y << ")";
        }
      }
    }
  }
}

// Since OpenCL 2.1 a global size of 0 is no error: the command does nothing and completes.
TEST_F(IcdNDRange, EmptyGlobalSizeSucceedsTrivially) {
  Program program = buildSource(kIds, "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "ids");
  Buffer out = bufferOf(std::vector<cl_uint>(kValuesPerItem * 4, 7));
  setArgs(kernel, out);
  const size_t empty1d[1] = {0}, empty2d[2] = {4, 0};
  for (auto [dims, global] : {std::pair<cl_uint, const size_t*>{1, empty1d}, {2, empty2d}}) {
    Event event;
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, dims, nullptr, global, nullptr, 0, nullptr, event.put()))
        << dims << "D";
    cl_event waitFor = event;
    ASSERT_CL_SUCCESS(clWaitForEvents(1, &waitFor));
    cl_int status = CL_QUEUED;
    EXPECT_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
    EXPECT_EQ(status, CL_COMPLETE);
  }
  EXPECT_EQ(read<cl_uint>(out, kValuesPerItem * 4), std::vector<cl_uint>(kValuesPerItem * 4, 7));
}

TEST_F(IcdNDRange, OffsetPlusSizeBeyondSizeMaxIsInvalidGlobalOffset) {
  Program program = buildSource(kIds, "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "ids");
  Buffer out = createBuffer(16 * kValuesPerItem * sizeof(cl_uint));
  setArgs(kernel, out);
  const size_t global = 16, offset = std::numeric_limits<size_t>::max() - 4;
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_OFFSET,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, &offset, &global, nullptr, 0, nullptr, nullptr));
}

}  // namespace
}  // namespace cl2vk::test
