// The collectives through the OpenCL API: every work-group and sub-group collective of the corpus
// (spirv/cl, spirv/asm, the -O2 builds) as programs from SPIR-V, a few written in OpenCL C and
// built at test time as OpenCL C 2.0 and 3.0, and non-uniform NDRanges whose last work-group is
// smaller. Each result is compared with the CPU reference of kernels/collective_reference.h: exact
// for integers, min, max and broadcasts; float, half and double add and mul within (n-1)·ε·Σ|x|
// (n the work-group size, ε the type's machine epsilon).

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <iostream>
#include <random>

#include "icd/icd_test_util.h"
#include "kernels/collective_reference.h"

namespace cl2vk::test {
namespace {

using namespace collectives;

class IcdCollectives : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    std::string extensions = deviceString(device_, CL_DEVICE_EXTENSIONS);
    fp16_ = hasWord(extensions, "cl_khr_fp16");
    fp64_ = hasWord(extensions, "cl_khr_fp64");
    subgroups_ = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0;
  }

  // Why the device cannot run `spec`, or "" when it can.
  std::string unsupported(const KernelSpec& spec) const {
    if (spec.type.type == Type::kHalf && !fp16_) return "the device lacks cl_khr_fp16";
    if (spec.type.type == Type::kDouble && !fp64_) return "the device lacks cl_khr_fp64";
    if (!spec.workGroup && !subgroups_) return "the device has no sub-groups";
    return "";
  }

  // The size of the sub-groups `kernel` runs in over work-groups of `local`: they are taken to be
  // runs of consecutive local linear ids, as on lavapipe and NVIDIA (see collective_reference.h).
  size_t subgroupSize(cl_kernel kernel, const Shape& shape) {
    if (!subgroups_) return 1;
    size_t local[3] = {shape.local[0], shape.local[1], shape.local[2]}, size = 0;
    EXPECT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                              shape.dims * sizeof(size_t), local, sizeof(size), &size, nullptr));
    return std::max<size_t>(size, 1);
  }

  // The NDRange of `shape` (global sizes from it, local sizes its work-group) for clEnqueueNDRangeKernel.
  cl_int enqueue(cl_kernel kernel, const Shape& shape) {
    std::array<uint64_t, 3> global64 = shape.globalSize();
    size_t global[3] = {global64[0], global64[1], global64[2]},
           local[3] = {shape.local[0], shape.local[1], shape.local[2]};
    return clEnqueueNDRangeKernel(queue_, kernel, shape.dims, nullptr, global, local, 0, nullptr, nullptr);
  }

  // Runs a corpus kernel (in, out[, broadcast source]) over `shape` and compares every output
  // with the reference. Returns the first mismatch, "" when all match, or "skip" when the
  // reference does not say what the kernel computes over the shape.
  std::string check(cl_kernel kernel, const KernelSpec& spec, const Shape& shape, uint32_t seed) {
    uint32_t lanes = static_cast<uint32_t>(subgroupSize(kernel, shape));
    if (!referenceDefined(spec, shape, lanes)) return "skip";
    size_t n = shape.items();
    std::mt19937_64 random(seed);
    std::vector<Value> in = inputs(spec, n, random);
    Buffer dIn = bufferOf(encode(spec.type, in), CL_MEM_READ_ONLY);
    Buffer dOut = createBuffer(n * spec.type.size, CL_MEM_WRITE_ONLY);
    if (!dIn.get() || !dOut.get()) return "no buffers";
    setArgs(kernel, dIn, dOut);
    BroadcastSource source = broadcastSource(shape, lanes);
    for (int d = 0; d < broadcastIdCount(spec); ++d)
      setArg(kernel, static_cast<cl_uint>(2 + d), cl_ulong{source.localId[d]});
    if (spec.function == "broadcast") setArg(kernel, 2, cl_uint{source.lane});
    if (cl_int status = enqueue(kernel, shape); status != CL_SUCCESS) {
      return spec.name + ": clEnqueueNDRangeKernel returned " + clErrorName(status);
    }
    std::vector<std::byte> out(n * spec.type.size);
    cl_int status = clEnqueueReadBuffer(queue_, dOut, CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr);
    if (status != CL_SUCCESS) return spec.name + ": clEnqueueReadBuffer returned " + clErrorName(status);
    return compare(spec, shape, lanes, in, out);
  }

  // Every kernel of corpus module `file` accepted by `wanted`, at each of `shapes`; returns how
  // many kernel runs were compared.
  size_t runModule(const std::string& file, const std::vector<Shape>& shapes,
                   const std::function<bool(const KernelSpec&)>& wanted) {
    Program program = buildCorpusModule(file);
    if (!program.get()) return 0;
    cl_uint count = 0;
    EXPECT_CL_SUCCESS(clCreateKernelsInProgram(program, 0, nullptr, &count));
    std::vector<cl_kernel> raw(count);
    EXPECT_CL_SUCCESS(clCreateKernelsInProgram(program, count, raw.data(), nullptr));
    std::vector<Kernel> kernels(raw.begin(), raw.end());
    size_t checked = 0;
    uint32_t seed = 1;
    for (const Kernel& kernel : kernels) {
      char name[128] = {};
      EXPECT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, nullptr));
      std::optional<KernelSpec> spec = parse(name);
      EXPECT_TRUE(spec) << file << ": cannot tell what " << name << " computes";
      if (!spec || !wanted(*spec)) continue;
      if (std::string why = unsupported(*spec); !why.empty()) {
        std::cout << "[ SKIPPED ] " << name << ": " << why << "\n";
        skipped_ = why;
        continue;
      }
      for (const Shape& shape : shapes) {
        std::string mismatch = check(kernel, *spec, shape, seed++);
        if (mismatch == "skip") continue;
        EXPECT_EQ(mismatch, "") << file;
        if (!mismatch.empty()) return checked;
        ++checked;
      }
    }
    return checked;
  }

  bool fp16_ = false, fp64_ = false, subgroups_ = false;
  std::string skipped_;  // why the last kernel the device cannot run was skipped
};

// One test per module, so that a failure names the module and ctest can run them side by side.
class CorpusCollectives : public IcdCollectives, public testing::WithParamInterface<std::string> {};

// Every function and type of the module at work-group sizes with partial sub-groups and at the
// largest work-group the corpus tests use, and the broadcasts also over a 3D range.
TEST_P(CorpusCollectives, EveryKernelMatchesTheCpu) {
  // 1024, or the device's largest work-group where that is smaller (SwiftShader's 256).
  auto largest =
      static_cast<uint32_t>(std::min<size_t>(1024, deviceInfo<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE)));
  const std::vector<Shape> shapes = {{1, {13, 1, 1}, {3, 1, 1}}, {1, {largest, 1, 1}, {2, 1, 1}}};
  const std::vector<Shape> broadcastShapes = {{3, {4, 2, 3}, {2, 1, 2}}};
  // A program of half or double kernels need not build on a device without the extension.
  if (GetParam().find("_half") != std::string::npos && !fp16_)
    GTEST_SKIP() << GetParam() << ": the device lacks cl_khr_fp16";
  if (GetParam().find("_double") != std::string::npos && !fp64_)
    GTEST_SKIP() << GetParam() << ": the device lacks cl_khr_fp64";
  size_t checked = runModule(GetParam(), shapes, [](const KernelSpec&) { return true; });
  if (HasFailure()) return;
  checked +=
      runModule(GetParam(), broadcastShapes, [](const KernelSpec& s) { return s.function.starts_with("broadcast"); });
  // A module of half kernels on a device without cl_khr_fp16 (SwiftShader, CL2VK_DEVICE_LACKS).
  if (checked == 0 && !skipped_.empty()) GTEST_SKIP() << GetParam() << ": " << skipped_;
  EXPECT_GT(checked, 0u) << GetParam() << ": no kernel was checked";
}

std::string moduleTestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  name = name.substr(0, name.find(".spv"));
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Icd, CorpusCollectives, testing::ValuesIn(collectiveModules("O2")), moduleTestName);

// global 1000, local 256: the last work-group has 232 work-items, and its collectives cover only them.
TEST_F(IcdCollectives, NonUniformRangeRemainderGroup) {
  const std::vector<Shape> shapes = {{1, {256, 1, 1}, {0, 0, 0}, {1000, 1, 1}},
                                     {2, {16, 4, 1}, {0, 0, 0}, {40, 10, 1}}};
  auto representative = [](const KernelSpec& s) {
    bool type = s.type.type == Type::kInt || s.type.type == Type::kFloat;
    bool op = s.op == "add" || s.op == "max" || s.op == "logical_xor" || s.op.empty();
    return type && op;
  };
  size_t checked = 0;
  for (const char* file :
       {"work_group_add_min_max.O2.spv", "work_group_vote.O2.spv", "work_group_broadcast.O2.spv",
        "work_group_uniform_arithmetic.O2.spv", "sub_group_add_min_max.O2.spv", "sub_group_vote.O2.spv"}) {
    checked += runModule(file, shapes, representative);
    if (HasFailure()) return;
  }
  EXPECT_GE(checked, 20u);
}

TEST_F(IcdCollectives, SpecificationExampleScans) {
  Program program = buildCorpusModule("spec_example.O2.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "spec_example");
  const std::vector<cl_int> p = {3, 1, 7, 0, 4, 1, 6, 3};
  Buffer dp = bufferOf(p), inclusive = createBuffer(8 * sizeof(cl_int)), exclusive = createBuffer(8 * sizeof(cl_int));
  setArgs(kernel, dp, inclusive, exclusive);
  run1d(kernel, 8, 8);
  EXPECT_EQ(read<cl_int>(inclusive, 8), (std::vector<cl_int>{3, 4, 11, 11, 15, 16, 22, 25}));
  EXPECT_EQ(read<cl_int>(exclusive, 8), (std::vector<cl_int>{0, 3, 4, 11, 11, 15, 16, 22}));
}

// Collectives written in OpenCL C, compiled by the runtime: one output per collective, each with
// an input of its own, checked as the corpus kernel of the same name would be.
constexpr const char* kSourceCollectives = R"(
kernel void work_group_collectives(global const int* a, global int* reduce_add,
                                   global const int* b, global int* scan_inclusive_min,
                                   global const long* c, global long* scan_exclusive_max,
                                   global const float* d, global float* reduce_add_float,
                                   global const int* e, global int* any,
                                   global const uint* f, global uint* broadcast, ulong from) {
  size_t i = get_global_linear_id();
  reduce_add[i] = work_group_reduce_add(a[i]);
  scan_inclusive_min[i] = work_group_scan_inclusive_min(b[i]);
  scan_exclusive_max[i] = work_group_scan_exclusive_max(c[i]);
  reduce_add_float[i] = work_group_reduce_add(d[i]);
  any[i] = work_group_any(e[i]);
  broadcast[i] = work_group_broadcast(f[i], from);
}
)";

TEST_F(IcdCollectives, BuiltFromSourceAsOpenCLC20And30) {
  const char* kSpecs[] = {
      "wg_reduce_add_int",   "wg_scan_inclusive_min_int", "wg_scan_exclusive_max_long", "wg_reduce_add_float", "wg_any",
      "wg_broadcast_1d_uint"};
  const std::vector<Shape> shapes = {{1, {128, 1, 1}, {4, 1, 1}}, {1, {256, 1, 1}, {0, 0, 0}, {1000, 1, 1}}};
  for (const char* options : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    Program program = buildSource(kSourceCollectives, options);
    ASSERT_TRUE(program.get()) << options;
    Kernel kernel = createKernel(program, "work_group_collectives");
    uint32_t seed = 100;
    for (const Shape& shape : shapes) {
      size_t n = shape.items();
      std::vector<std::vector<Value>> in;
      std::vector<Buffer> inputBuffers, outputs;
      cl_uint index = 0;
      for (const char* name : kSpecs) {
        KernelSpec spec = *parse(name);
        std::mt19937_64 random(seed++);
        in.push_back(inputs(spec, n, random));
        inputBuffers.push_back(bufferOf(encode(spec.type, in.back()), CL_MEM_READ_ONLY));
        outputs.push_back(createBuffer(n * spec.type.size, CL_MEM_WRITE_ONLY));
        setArg(kernel, index++, inputBuffers.back());
        setArg(kernel, index++, outputs.back());
      }
      BroadcastSource source = broadcastSource(shape, 1);
      setArg(kernel, index, cl_ulong{source.localId[0]});
      ASSERT_CL_SUCCESS(enqueue(kernel, shape)) << options;
      for (size_t k = 0; k < std::size(kSpecs); ++k) {
        KernelSpec spec = *parse(kSpecs[k]);
        std::vector<std::byte> out(n * spec.type.size);
        ASSERT_CL_SUCCESS(
            clEnqueueReadBuffer(queue_, outputs[k], CL_TRUE, 0, out.size(), out.data(), 0, nullptr, nullptr));
        EXPECT_EQ(compare(spec, shape, 1, in[k], out), "") << options;
      }
    }
  }
}

// Sub-group collectives written in OpenCL C 3.0, for a device that reports __opencl_c_subgroups.
TEST_F(IcdCollectives, SubGroupCollectivesBuiltFromSource) {
  auto features = deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_FEATURES);
  if (std::none_of(features.begin(), features.end(),
                   [](const cl_name_version& v) { return std::strcmp(v.name, "__opencl_c_subgroups") == 0; })) {
    GTEST_SKIP() << "the device does not report __opencl_c_subgroups";
  }
  Program program = buildSource(R"(
    kernel void sub_group_collectives(global const int* a, global int* reduce_max, global const uint* b, global uint* scan_add) {
      size_t i = get_global_linear_id();
      reduce_max[i] = sub_group_reduce_max(a[i]);
      scan_add[i] = sub_group_scan_inclusive_add(b[i]);
    }
  )",
                                "-cl-std=CL3.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "sub_group_collectives");
  const Shape shape{1, {100, 1, 1}, {3, 1, 1}};
  uint32_t lanes = static_cast<uint32_t>(subgroupSize(kernel, shape));
  const size_t n = shape.items();
  KernelSpec reduceMax = *parse("sg_reduce_max_int"), scanAdd = *parse("sg_scan_inclusive_add_uint");
  std::mt19937_64 random(7);
  std::vector<Value> a = inputs(reduceMax, n, random), b = inputs(scanAdd, n, random);
  Buffer da = bufferOf(encode(reduceMax.type, a)), db = bufferOf(encode(scanAdd.type, b));
  Buffer ra = createBuffer(n * 4), rb = createBuffer(n * 4);
  setArgs(kernel, da, ra, db, rb);
  ASSERT_CL_SUCCESS(enqueue(kernel, shape));
  std::vector<std::byte> outA = read<std::byte>(ra, n * 4), outB = read<std::byte>(rb, n * 4);
  EXPECT_EQ(compare(reduceMax, shape, lanes, a, outA), "") << "sub-groups of " << lanes;
  EXPECT_EQ(compare(scanAdd, shape, lanes, b, outB), "") << "sub-groups of " << lanes;
}

}  // namespace
}  // namespace cl2vk::test
