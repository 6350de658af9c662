// Programs from SPIR-V (the corpus) and from OpenCL C source: build options, build status and
// log, program queries, and kernels made from a program.

#include <cfloat>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

using IcdProgram = IcdTest;

// Three kernels, so that the program queries have something to list.
constexpr const char* kThreeKernels = R"(
int scaled(int v) { return v * SCALE; }
kernel void set_to_index(global int* out) { out[get_global_id(0)] = (int)get_global_id(0); }
kernel void scale_in_place(global int* out) { out[get_global_id(0)] = scaled(out[get_global_id(0)]); }
kernel void add_one(global int* out) { out[get_global_id(0)] += 1; }
)";

std::set<std::string> splitNames(const std::string& names) {
  std::set<std::string> result;
  std::istringstream in(names);
  for (std::string name; std::getline(in, name, ';');) result.insert(name);
  return result;
}

std::string programString(cl_program program, cl_program_info name) {
  return infoString(
      [&](size_t size, void* value, size_t* ret) { return clGetProgramInfo(program, name, size, value, ret); });
}

TEST_F(IcdProgram, FromCorpusILRunsAndKeepsItsIL) {
  std::vector<uint8_t> il = corpusModule("kernels/vector_add.O2.spv");
  ASSERT_FALSE(il.empty());
  Program program = buildIL(il, "", "vector_add.O2.spv");
  ASSERT_TRUE(program.get());
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_IL, 0, nullptr, &size));
  std::vector<uint8_t> returned(size);
  ASSERT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_IL, size, returned.data(), nullptr));
  EXPECT_EQ(returned, il);
  EXPECT_EQ(programString(program, CL_PROGRAM_KERNEL_NAMES), "vector_add");

  Kernel kernel = createKernel(program, "vector_add");
  const size_t n = 1000;
  std::mt19937 random(5);
  std::uniform_real_distribution<float> values(-100.0f, 100.0f);
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) a[i] = values(random), b[i] = values(random);
  Buffer da = bufferOf(a, CL_MEM_READ_ONLY), db = bufferOf(b, CL_MEM_READ_ONLY), dc = createBuffer(n * sizeof(float));
  setArgs(kernel, da, db, dc);
  run1d(kernel, n);
  std::vector<float> c = read<float>(dc, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;  // one addition: exact
}

TEST_F(IcdProgram, QueriesAfterABuild) {
  const std::string options = "-cl-std=CL2.0 -DSCALE=3";
  Program program = buildSource(kThreeKernels, options);
  ASSERT_TRUE(program.get());
  EXPECT_EQ(programString(program, CL_PROGRAM_SOURCE), kThreeKernels);
  EXPECT_EQ(buildInfo<cl_build_status>(program, device_, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size));
  std::string returnedOptions(size, '\0');
  ASSERT_CL_SUCCESS(
      clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_OPTIONS, size, returnedOptions.data(), nullptr));
  EXPECT_EQ(returnedOptions.c_str(), options);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(program, device_, CL_PROGRAM_BINARY_TYPE),
            static_cast<cl_program_binary_type>(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  cl_uint devices = 0;
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof(devices), &devices, nullptr));
  EXPECT_EQ(devices, 1u);
  cl_device_id device = nullptr;
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof(device), &device, nullptr));
  EXPECT_EQ(device, device_);
  cl_context context = nullptr;
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_CONTEXT, sizeof(context), &context, nullptr));
  EXPECT_EQ(context, context_.get());
  size_t kernels = 0;
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(kernels), &kernels, nullptr));
  EXPECT_EQ(kernels, 3u);
  const std::set<std::string> names = {"set_to_index", "scale_in_place", "add_one"};
  EXPECT_EQ(splitNames(programString(program, CL_PROGRAM_KERNEL_NAMES)), names);
}

TEST_F(IcdProgram, CreateKernelsInProgramMakesEveryKernel) {
  Program program = buildSource(kThreeKernels, "-DSCALE=5");
  ASSERT_TRUE(program.get());
  cl_uint count = 0;
  ASSERT_CL_SUCCESS(clCreateKernelsInProgram(program, 0, nullptr, &count));
  ASSERT_EQ(count, 3u);
  cl_kernel tooFew[1] = {};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clCreateKernelsInProgram(program, 1, tooFew, nullptr));
  cl_kernel raw[3] = {};
  ASSERT_CL_SUCCESS(clCreateKernelsInProgram(program, 3, raw, nullptr));
  std::vector<Kernel> kernels;
  std::map<std::string, cl_kernel> byName;
  for (cl_kernel k : raw) {
    kernels.emplace_back(k);
    size_t size = 0;
    ASSERT_CL_SUCCESS(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size));
    std::string name(size, '\0');
    ASSERT_CL_SUCCESS(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr));
    byName[name.c_str()] = k;
  }
  ASSERT_EQ(byName.size(), 3u);
  // The kernels are usable: index, then scale by SCALE, then add one.
  const size_t n = 77;
  Buffer out = createBuffer(n * sizeof(int32_t));
  for (const char* name : {"set_to_index", "scale_in_place", "add_one"}) {
    ASSERT_TRUE(byName.contains(name)) << name;
    setArgs(byName[name], out);
    run1d(byName[name], n);
  }
  std::vector<int32_t> result = read<int32_t>(out, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], 5 * static_cast<int32_t>(i) + 1) << i;
}

TEST_F(IcdProgram, DefinesReachTheSource) {
  Program program = buildSource(R"(
    #ifndef VALUE
    #error VALUE is not defined
    #endif
    kernel void defined(global int* out) { out[0] = VALUE * (TWICE + 1); }
  )",
                                "-D VALUE=21 -DTWICE");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "defined");
  Buffer out = createBuffer(sizeof(int32_t));
  setArgs(kernel, out);
  run1d(kernel, 1);
  EXPECT_EQ(read<int32_t>(out, 1)[0], 42);
}

// -cl-fast-relaxed-math reaches the translator (Target::relaxedMath): float sin is then the
// device's GLSL.std.450 Sin, within OpenCL's relaxed bound (2^-11 absolute in [-pi, pi]), where
// the default build calls the builtin library's (4 ULP everywhere). lavapipe's Sin is millions of
// ULP off for large arguments, so the two programs differ there.
TEST_F(IcdProgram, FastRelaxedMathSelectsTheDevicesInstructions) {
  constexpr const char* kSin =
      "kernel void f(global const float* x, global float* r) { r[get_global_id(0)] = sin(x[get_global_id(0)]); }";
  Program precise = buildSource(kSin), relaxed = buildSource(kSin, "-cl-fast-relaxed-math");
  ASSERT_TRUE(precise.get() && relaxed.get());
  std::mt19937 random(7);
  std::uniform_real_distribution<float> small(-3.14159f, 3.14159f), large(1e3f, 1e5f);
  std::vector<float> x;
  for (int i = 0; i < 256; ++i) x.push_back(small(random));
  for (int i = 0; i < 256; ++i) x.push_back(large(random));
  auto run = [&](cl_program program) {
    Kernel kernel = createKernel(program, "f");
    Buffer in = bufferOf(x, CL_MEM_READ_ONLY), out = createBuffer(x.size() * sizeof(float));
    setArgs(kernel, in, out);
    run1d(kernel, x.size());
    return read<float>(out, x.size());
  };
  std::vector<float> exact = run(precise), fast = run(relaxed);
  size_t differ = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double reference = std::sin(double(x[i]));
    double ulp = std::ldexp(1.0, std::ilogb(float(reference)) - 23);
    EXPECT_LE(std::fabs(exact[i] - reference), 4 * ulp) << "sin(" << x[i] << ")";
    if (i < 256) {
      EXPECT_LE(std::fabs(fast[i] - reference), 0x1p-11) << "relaxed sin(" << x[i] << ")";
    }
    differ += exact[i] != fast[i];
  }
  EXPECT_GT(differ, 0u) << "the relaxed build gave the library's results: the option did not reach the translator";
}

// log, log2 and log10 under -cl-fast-relaxed-math keep OpenCL's bound (3 ULP) for denormal
// arguments on a device that keeps float denormals: lavapipe's Log and Log2 instructions took
// 2^-141 for 2^-127 (the CTS's math_brute_force), so the relaxed build calls the library's. A
// device that flushes denormals may give -inf.
TEST_F(IcdProgram, RelaxedLogarithmsOfDenormalsStayWithinTheirBound) {
  Program program = buildSource(R"(
    kernel void logs(global const float* x, global float* r) {
      size_t i = get_global_id(0);
      r[3 * i] = log(x[i]);
      r[3 * i + 1] = log2(x[i]);
      r[3 * i + 2] = log10(x[i]);
    })",
                                "-cl-fast-relaxed-math");
  ASSERT_TRUE(program.get());
  const bool keepsDenormals = deviceInfo<cl_device_fp_config>(device_, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM;
  std::vector<float> x;
  for (int exponent = -149; exponent <= -120; ++exponent) {
    x.push_back(std::ldexp(1.0f, exponent));
    x.push_back(std::ldexp(1.75f, exponent));
  }
  x.push_back(3.0f);
  Kernel kernel = createKernel(program, "logs");
  Buffer in = bufferOf(x, CL_MEM_READ_ONLY), out = createBuffer(3 * x.size() * sizeof(float));
  setArgs(kernel, in, out);
  run1d(kernel, x.size());
  std::vector<float> r = read<float>(out, 3 * x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double exact[] = {std::log(double(x[i])), std::log2(double(x[i])), std::log10(double(x[i]))};
    for (int f = 0; f < 3; ++f) {
      float got = r[3 * i + f];
      if (!keepsDenormals && x[i] < FLT_MIN && std::isinf(got) && got < 0) continue;
      double ulp = std::ldexp(1.0, std::ilogb(float(exact[f])) - 23);
      EXPECT_LE(std::fabs(got - exact[f]), 3 * ulp)
          << (f == 0   ? "log"
              : f == 1 ? "log2"
                       : "log10")
          << "(" << std::hexfloat << x[i] << ") = " << got << ", exactly " << exact[f];
    }
  }
}

// Without -cl-std, a program is OpenCL C 1.2 (the newest 1.x); -cl-std=CL2.0 and CL3.0 select
// those, and OpenCL C 3.0 sees the feature macros the device reports. __OPENCL_VERSION__ is the
// device's OpenCL version (CL_DEVICE_VERSION 3.0: 300) in every language version; clang leaves it
// to the implementation (the OpenCL-CTS's kernel_preprocessor_macros found it undefined).
TEST_F(IcdProgram, ClStdSelectsTheLanguageVersion) {
  constexpr const char* kVersion = R"(
    kernel void version(global int* out) {
      out[0] = __OPENCL_C_VERSION__;
    #ifdef __opencl_c_work_group_collective_functions
      out[1] = 1;
    #else
      out[1] = 0;
    #endif
    #ifdef __OPENCL_VERSION__
      out[2] = __OPENCL_VERSION__;
    #endif
    }
  )";
  ASSERT_EQ(deviceString(device_, CL_DEVICE_VERSION).rfind("OpenCL 3.0 ", 0), 0u);
  const std::pair<const char*, int> kExpected[] = {
      {"", 120}, {"-cl-std=CL1.2", 120}, {"-cl-std=CL2.0", 200}, {"-cl-std=CL3.0", 300}};
  for (const auto& [options, expected] : kExpected) {
    Program program = buildSource(kVersion, options);
    ASSERT_TRUE(program.get()) << options;
    Kernel kernel = createKernel(program, "version");
    Buffer out = bufferOf(std::vector<int32_t>{-1, -1, -1});
    setArgs(kernel, out);
    run1d(kernel, 1);
    std::vector<int32_t> result = read<int32_t>(out, 3);
    EXPECT_EQ(result[0], expected) << "options \"" << options << "\"";
    EXPECT_EQ(result[2], 300) << "__OPENCL_VERSION__ with options \"" << options << "\"";
    if (expected == 300) {
      EXPECT_EQ(result[1], 1) << "__opencl_c_work_group_collective_functions is not defined in OpenCL C 3.0";
    }
  }
}

// __IMAGE_SUPPORT__ says what CL_DEVICE_IMAGE_SUPPORT says, in every OpenCL C version (clang-15
// defines it for spir64 whatever the device has).
TEST_F(IcdProgram, ImageSupportMacroFollowsTheDevice) {
  constexpr const char* kImageSupport = R"(
    kernel void image_support(global int* out) {
    #ifdef __IMAGE_SUPPORT__
      out[0] = 1;
    #else
      out[0] = 0;
    #endif
    }
  )";
  const int expected = deviceInfo<cl_bool>(device_, CL_DEVICE_IMAGE_SUPPORT) ? 1 : 0;
  for (const char* options : {"", "-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    Program program = buildSource(kImageSupport, options);
    ASSERT_TRUE(program.get()) << options;
    Kernel kernel = createKernel(program, "image_support");
    Buffer out = bufferOf(std::vector<int32_t>{-1});
    setArgs(kernel, out);
    run1d(kernel, 1);
    EXPECT_EQ(read<int32_t>(out, 1)[0], expected) << "options \"" << options << "\"";
  }
}

// Each optional extension and OpenCL C feature macro is defined in a program exactly when the
// device reports it (CL_DEVICE_EXTENSIONS, CL_DEVICE_OPENCL_C_FEATURES), in OpenCL C 2.0 and 3.0,
// although clang-15's own header defines many of them for spir64 whatever the device has.
TEST_F(IcdProgram, ExtensionAndFeatureMacrosFollowTheDevice) {
  const std::vector<std::string> names = {"cl_khr_fp16",
                                          "cl_khr_fp64",
                                          "cl_khr_subgroups",
                                          "cl_khr_subgroup_ballot",
                                          "cl_khr_subgroup_rotate",
                                          "cl_khr_subgroup_extended_types",
                                          "cl_khr_extended_bit_ops",
                                          "cl_khr_integer_dot_product",
                                          "cl_khr_int64_base_atomics",
                                          "cl_khr_3d_image_writes",
                                          "cl_khr_srgb_image_writes",
                                          "cl_khr_depth_images",
                                          "__opencl_c_images",
                                          "__opencl_c_read_write_images",
                                          "__opencl_c_pipes",
                                          "__opencl_c_device_enqueue",
                                          "__opencl_c_atomic_order_seq_cst",
                                          "__opencl_c_atomic_scope_all_devices",
                                          "__opencl_c_subgroups",
                                          "__opencl_c_fp64",
                                          "__opencl_c_integer_dot_product_input_4x8bit",
                                          "__opencl_c_ext_fp32_global_atomic_add",
                                          "__opencl_c_work_group_collective_functions",
                                          "__opencl_c_generic_address_space"};
  std::set<std::string> reported;
  std::istringstream words(deviceString(device_, CL_DEVICE_EXTENSIONS));
  for (std::string word; words >> word;) reported.insert(word);
  for (const cl_name_version& feature : deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_FEATURES))
    reported.insert(feature.name);
  std::string source = "kernel void macros(global int* out) {\n";
  for (size_t i = 0; i < names.size(); ++i) {
    source += "#ifdef " + names[i] + "\n  out[" + std::to_string(i) + "] = 1;\n#else\n  out[" + std::to_string(i) +
              "] = 0;\n#endif\n";
  }
  source += "}\n";
  for (const char* options : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    Program program = buildSource(source, options);
    ASSERT_TRUE(program.get()) << options;
    Kernel kernel = createKernel(program, "macros");
    Buffer out = bufferOf(std::vector<int32_t>(names.size(), -1));
    setArgs(kernel, out);
    run1d(kernel, 1);
    std::vector<int32_t> defined = read<int32_t>(out, names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      // Feature macros are OpenCL C 3.0's: 2.0 requires what they stand for, and clang-15 stands
      // by its own list there.
      if (names[i].starts_with("__opencl_c_") && std::string(options) == "-cl-std=CL2.0") continue;
      EXPECT_EQ(defined[i], reported.contains(names[i]) ? 1 : 0) << names[i] << " with " << options;
    }
  }
}

// OpenCL C 2.0 requires atomic_load and atomic_store (sequentially consistent, device scope); the
// feature macros undefined for what the device lacks must not take them away there. In 3.0 they
// exist exactly when the device reports both features.
TEST_F(IcdProgram, ImplicitOrderAtomicsFollowTheLanguageVersion) {
  constexpr const char* kAtomics = R"(
    kernel void counter(global atomic_int* value, global int* out) {
      atomic_store(value, 41);
      out[0] = atomic_load(value) + 1;
    }
  )";
  Program program = buildSource(kAtomics, "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "counter");
  Buffer value = bufferOf(std::vector<int32_t>{0}), out = bufferOf(std::vector<int32_t>{0});
  setArgs(kernel, value, out);
  run1d(kernel, 1);
  EXPECT_EQ(read<int32_t>(out, 1)[0], 42);

  bool both = false, seqCst = false, deviceScope = false;
  for (const cl_name_version& feature : deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_FEATURES)) {
    seqCst |= std::string(feature.name) == "__opencl_c_atomic_order_seq_cst";
    deviceScope |= std::string(feature.name) == "__opencl_c_atomic_scope_device";
  }
  both = seqCst && deviceScope;
  const char* source = kAtomics;
  cl_int error = CL_SUCCESS;
  Program in30(clCreateProgramWithSource(context_, 1, &source, nullptr, &error));
  ASSERT_CL_SUCCESS(error);
  cl_int built = clBuildProgram(in30, 1, &device_, "-cl-std=CL3.0", nullptr, nullptr);
  EXPECT_EQ(built == CL_SUCCESS, both) << programBuildLog(in30, device_);
}

TEST_F(IcdProgram, SyntaxErrorFailsTheBuildWithALog) {
  const char* source = "kernel void broken(global int* out) { out[0] = ; }\n";
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &source, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device_, "-cl-std=CL2.0", nullptr, nullptr));
  EXPECT_EQ(buildInfo<cl_build_status>(program, device_, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  std::string log = programBuildLog(program, device_);
  EXPECT_NE(log.find("error"), std::string::npos) << "build log:\n" << log;
  EXPECT_EQ(clCreateKernel(program, "broken", &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, status);
  size_t kernels = 0;
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                  clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(kernels), &kernels, nullptr));
}

// OpenCL allows a program of helper functions alone: it builds, and has no kernels.
TEST_F(IcdProgram, ProgramWithoutKernelsBuildsWithNone) {
  Program program = buildSource("int helper(int x) { return x + 1; }\n");
  ASSERT_TRUE(program.get());
  size_t kernels = 1;
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_NUM_KERNELS, sizeof(kernels), &kernels, nullptr));
  EXPECT_EQ(kernels, 0u);
  cl_uint count = 1;
  EXPECT_CL_SUCCESS(clCreateKernelsInProgram(program, 0, nullptr, &count));
  EXPECT_EQ(count, 0u);
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(program, "helper", &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_NAME, status);
}

TEST_F(IcdProgram, UnbuiltProgramHasNoExecutable) {
  const char* source = kThreeKernels;
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &source, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(buildInfo<cl_build_status>(program, device_, CL_PROGRAM_BUILD_STATUS), CL_BUILD_NONE);
  EXPECT_EQ(clCreateKernel(program, "add_one", &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, status);
  char names[256];
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                  clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, nullptr));
  cl_uint count = 0;
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, clCreateKernelsInProgram(program, 0, nullptr, &count));
}

TEST_F(IcdProgram, RebuildIsRefusedWhileKernelsAreAttached) {
  Program program = buildSource(kThreeKernels, "-DSCALE=2");
  ASSERT_TRUE(program.get());
  EXPECT_CL_SUCCESS(clBuildProgram(program, 1, &device_, "-DSCALE=4", nullptr, nullptr));
  Kernel kernel = createKernel(program, "add_one");
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clBuildProgram(program, 1, &device_, "-DSCALE=2", nullptr, nullptr));
}

TEST_F(IcdProgram, KernelNamesThatDoNotExistAreRefused) {
  Program program = buildCorpusModule("kernels/several_kernels.O2.spv");
  ASSERT_TRUE(program.get());
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(program, "no_such_kernel", &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_NAME, status);
  EXPECT_EQ(clCreateKernel(program, "twice", &status), nullptr);  // a helper function, not a kernel
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_NAME, status);
  EXPECT_EQ(clCreateKernel(program, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
}

TEST_F(IcdProgram, UnknownBuildOptionIsInvalidBuildOptions) {
  const char* source = kThreeKernels;
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &source, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_ERROR(CL_INVALID_BUILD_OPTIONS,
                  clBuildProgram(program, 1, &device_, "-DSCALE=1 -fno-such-option", nullptr, nullptr));
}

TEST_F(IcdProgram, MalformedILIsInvalidValue) {
  const std::string notSpirv = "this is not a SPIR-V module at all";
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context_, notSpirv.data(), notSpirv.size(), &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  EXPECT_EQ(clCreateProgramWithIL(context_, notSpirv.data(), 0, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  EXPECT_EQ(clCreateProgramWithIL(context_, nullptr, 16, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
}

// A well-formed module with a construct cl2vk cannot run (recursion) fails the build, with a log
// that says why (api_bad_input_test.cc has every class).
TEST_F(IcdProgram, UnsupportedConstructIsRefusedWithAReason) {
  std::vector<uint8_t> il = corpusModule("unsupported/recursion.O0.spv");
  ASSERT_FALSE(il.empty());
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithIL(context_, il.data(), il.size(), &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  EXPECT_EQ(buildInfo<cl_build_status>(program, device_, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  std::string log = programBuildLog(program, device_);
  EXPECT_NE(log.find("recursion is not supported: 'fib' calls 'fib'"), std::string::npos) << log;
}

TEST_F(IcdProgram, RetainAndReleaseCount) {
  Program program = buildCorpusModule("kernels/vector_add.O2.spv");
  ASSERT_TRUE(program.get());
  cl_uint references = 0;
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clRetainProgram(program));
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 2u);
  EXPECT_CL_SUCCESS(clReleaseProgram(program));
  EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
}

}  // namespace
}  // namespace cl2vk::test
