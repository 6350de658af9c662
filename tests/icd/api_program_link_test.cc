// Separate compilation and linking, program binaries, and building without the compilers, through
// the ICD loader. Programs from IL compile too (the CTS's spirv_new linkage tests: clCompileProgram
// of an IL program used to return CL_INVALID_OPERATION).
#include "icd/icd_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

class IcdProgramLink : public IcdTest {
 protected:
  // A program from source, compiled (not built) with `headers` named as `#include` sees them.
  Program compiled(const std::string& source, const std::string& options = "-cl-std=CL2.0",
                   const std::vector<std::pair<std::string, cl_program>>& headers = {}) {
    const char* text = source.c_str();
    cl_int error = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &error));
    EXPECT_CL_SUCCESS(error);
    std::vector<const char*> names;
    std::vector<cl_program> programs;
    for (const auto& [name, header] : headers) {
      names.push_back(name.c_str());
      programs.push_back(header);
    }
    cl_int status = clCompileProgram(program, 1, &device_, options.c_str(), static_cast<cl_uint>(headers.size()),
                                     headers.empty() ? nullptr : programs.data(),
                                     headers.empty() ? nullptr : names.data(), nullptr, nullptr);
    EXPECT_CL_SUCCESS(status) << programBuildLog(program, device_);
    return program;
  }

  // `program`'s binary for the test's device, loaded into a new program with
  // clCreateProgramWithBinary, whose type for the device is `type`.
  Program reloaded(cl_program program, cl_program_binary_type type) {
    size_t size = 0;
    EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
    std::vector<unsigned char> binary(size);
    unsigned char* pointer = binary.data();
    EXPECT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr));
    const unsigned char* binaries[] = {binary.data()};
    cl_int status = CL_INVALID_VALUE, error = CL_SUCCESS;
    Program copy(clCreateProgramWithBinary(context_, 1, &device_, &size, binaries, &status, &error));
    EXPECT_CL_SUCCESS(error);
    EXPECT_CL_SUCCESS(status);
    EXPECT_EQ(buildInfo<cl_program_binary_type>(copy, device_, CL_PROGRAM_BINARY_TYPE), type);
    return copy;
  }

  // Runs a kernel `name` of `program` that writes out[i] for i < n, and returns out.
  std::vector<cl_int> runWriter(cl_program program, const std::string& name, size_t n) {
    Kernel kernel = createKernel(program, name);
    Buffer out = createBuffer(n * sizeof(cl_int));
    setArgs(kernel, out);
    run1d(kernel, n);
    return read<cl_int>(out, n);
  }
};

TEST_F(IcdProgramLink, CompiledObjectsLinkIntoOneExecutable) {
  Program header(nullptr);
  {
    const char* text = "int twice(int x);\n";
    cl_int error = CL_SUCCESS;
    header = Program(clCreateProgramWithSource(context_, 1, &text, nullptr, &error));
    ASSERT_CL_SUCCESS(error);
  }
  Program caller = compiled(R"(
    #include "helpers/twice.h"
    kernel void use_twice(global int* out) { out[get_global_id(0)] = twice((int)get_global_id(0)) + 1; }
  )",
                            "-cl-std=CL2.0", {{"helpers/twice.h", header}});
  Program callee = compiled("int twice(int x) { return 2 * x; }\n");
  ASSERT_TRUE(caller.get() && callee.get());

  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  ASSERT_CL_SUCCESS(clGetProgramBuildInfo(caller, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_program_binary_type>(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));

  cl_program inputs[] = {caller, callee};
  cl_int error = CL_SUCCESS;
  Program linked(clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(linked, device_);
  ASSERT_CL_SUCCESS(clGetProgramBuildInfo(linked, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_program_binary_type>(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));

  std::vector<cl_int> out = runWriter(linked, "use_twice", 100);
  for (cl_int i = 0; i < 100; ++i) ASSERT_EQ(out[i], 2 * i + 1) << i;
}

// The IL of each compiled object (its binary) made a program with clCreateProgramWithIL, compiled
// again, and linked: one module exports a function, the other imports it.
TEST_F(IcdProgramLink, ILProgramsCompileAndLink) {
  auto ilProgram = [&](const std::string& source) {
    Program object = compiled(source);
    size_t size = 0;
    EXPECT_CL_SUCCESS(clGetProgramInfo(object, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
    std::vector<unsigned char> il(size);
    unsigned char* pointer = il.data();
    EXPECT_CL_SUCCESS(clGetProgramInfo(object, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr));
    cl_int error = CL_SUCCESS;
    Program program(clCreateProgramWithIL(context_, il.data(), il.size(), &error));
    EXPECT_CL_SUCCESS(error);
    EXPECT_CL_SUCCESS(clCompileProgram(program, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr))
        << programBuildLog(program, device_);
    return program;
  };
  Program exporter = ilProgram("int thrice(int x) { return 3 * x; }\n");
  Program importer = ilProgram(R"(
    int thrice(int x);
    kernel void use_thrice(global int* out) { out[get_global_id(0)] = thrice((int)get_global_id(0)) - 2; }
  )");
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  ASSERT_CL_SUCCESS(clGetProgramBuildInfo(importer, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_program_binary_type>(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  cl_program inputs[] = {exporter, importer};
  cl_int error = CL_SUCCESS;
  Program linked(clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(linked, device_);
  std::vector<cl_int> out = runWriter(linked, "use_thrice", 64);
  for (cl_int i = 0; i < 64; ++i) ASSERT_EQ(out[i], 3 * i - 2) << i;
}

// IL that is not valid SPIR-V fails its compilation with the validator's message in the log; a
// program from a binary is compiled already.
TEST_F(IcdProgramLink, InvalidILFailsItsCompilationAndABinaryIsNotCompiled) {
  std::vector<uint32_t> words = readWords(corpusDir() / "kernels" / "vector_add.O2.spv");
  std::vector<uint32_t> broken = words;
  for (size_t at = 5; at < broken.size();) {  // the first OpLoad loads from its own result
    uint32_t count = broken[at] >> 16;
    if ((broken[at] & 0xFFFF) == 61 /* OpLoad */) {
      broken[at + 3] = broken[at + 2];
      break;
    }
    at += count;
  }
  cl_int error = CL_SUCCESS;
  Program program(clCreateProgramWithIL(context_, broken.data(), broken.size() * 4, &error));
  ASSERT_CL_SUCCESS(error);
  EXPECT_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE,
                  clCompileProgram(program, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_NE(programBuildLog(program, device_).find("the IL is not valid SPIR-V"), std::string::npos)
      << programBuildLog(program, device_);

  size_t size = words.size() * 4;
  const unsigned char* binaries[] = {reinterpret_cast<const unsigned char*>(words.data())};
  Program binary(clCreateProgramWithBinary(context_, 1, &device_, &size, binaries, nullptr, &error));
  ASSERT_CL_SUCCESS(error);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clCompileProgram(binary, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr));
}

TEST_F(IcdProgramLink, UnresolvedFunctionFailsTheLink) {
  Program caller = compiled(R"(
    int missing(int x);
    kernel void use_missing(global int* out) { out[get_global_id(0)] = missing(1); }
  )");
  cl_program inputs[] = {caller};
  cl_int error = CL_SUCCESS;
  Program linked(clLinkProgram(context_, 1, &device_, "", 1, inputs, nullptr, nullptr, &error));
  EXPECT_CL_ERROR(CL_LINK_PROGRAM_FAILURE, error);
  ASSERT_TRUE(linked.get()) << "a failed link still returns a program that holds the log";
  EXPECT_NE(programBuildLog(linked, device_).find("missing"), std::string::npos) << programBuildLog(linked, device_);
}

TEST_F(IcdProgramLink, ALibraryLinksLater) {
  Program callee = compiled("int plus_seven(int x) { return x + 7; }\n");
  cl_program libraryInputs[] = {callee};
  cl_int error = CL_SUCCESS;
  Program library(clLinkProgram(context_, 1, &device_, "-create-library", 1, libraryInputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(library, device_);
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
  ASSERT_CL_SUCCESS(clGetProgramBuildInfo(library, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_program_binary_type>(CL_PROGRAM_BINARY_TYPE_LIBRARY));

  Program caller = compiled(R"(
    int plus_seven(int x);
    kernel void use_library(global int* out) { out[get_global_id(0)] = plus_seven((int)get_global_id(0)); }
  )");
  cl_program inputs[] = {caller, library};
  Program linked(clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(linked, device_);
  std::vector<cl_int> out = runWriter(linked, "use_library", 64);
  for (cl_int i = 0; i < 64; ++i) ASSERT_EQ(out[i], i + 7) << i;
}

TEST_F(IcdProgramLink, BinaryBuildsAgainIntoTheSameKernels) {
  Program original = buildSource("kernel void squares(global int* out) { int i = get_global_id(0); out[i] = i * i; }",
                                 "-cl-std=CL2.0");
  ASSERT_TRUE(original.get());
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  ASSERT_GT(size, 20u);
  std::vector<unsigned char> binary(size);
  unsigned char* pointer = binary.data();
  ASSERT_CL_SUCCESS(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr));

  const unsigned char* binaries[] = {binary.data()};
  cl_int status = CL_INVALID_VALUE, error = CL_SUCCESS;
  Program copy(clCreateProgramWithBinary(context_, 1, &device_, &size, binaries, &status, &error));
  ASSERT_CL_SUCCESS(error);
  EXPECT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clBuildProgram(copy, 1, &device_, "", nullptr, nullptr)) << programBuildLog(copy, device_);
  std::vector<cl_int> out = runWriter(copy, "squares", 50);
  for (cl_int i = 0; i < 50; ++i) ASSERT_EQ(out[i], i * i) << i;

  std::vector<unsigned char> garbage(64, 0xAB);
  const unsigned char* bad[] = {garbage.data()};
  size_t badSize = garbage.size();
  Program refused(clCreateProgramWithBinary(context_, 1, &device_, &badSize, bad, &status, &error));
  EXPECT_CL_ERROR(CL_INVALID_BINARY, error);
  EXPECT_CL_ERROR(CL_INVALID_BINARY, status);
  EXPECT_EQ(refused.get(), nullptr);
}

// The binary of a compiled object or a library says what it is: a program made from it reports
// that type and links as the original does (the CTS's program_binary_type).
TEST_F(IcdProgramLink, CompiledObjectAndLibraryBinariesKeepTheirType) {
  Program callee = compiled("int plus_three(int x) { return x + 3; }\n");
  Program object = reloaded(callee, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program libraryInputs[] = {object};
  cl_int error = CL_SUCCESS;
  Program library(clLinkProgram(context_, 1, &device_, "-create-library", 1, libraryInputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(library, device_);
  Program libraryCopy = reloaded(library, CL_PROGRAM_BINARY_TYPE_LIBRARY);

  Program caller = compiled(R"(
    int plus_three(int x);
    kernel void use_object(global int* out) { out[get_global_id(0)] = plus_three((int)get_global_id(0)); }
  )");
  Program callerCopy = reloaded(caller, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program inputs[] = {callerCopy, libraryCopy};
  Program linked(clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(linked, device_);
  std::vector<cl_int> out = runWriter(linked, "use_object", 32);
  for (cl_int i = 0; i < 32; ++i) ASSERT_EQ(out[i], i + 3) << i;
  // An executable's binary is an executable again.
  reloaded(linked, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

// A binary as llvm-spirv-15 --spirv-ext=+all writes it at -O2 (spirv/frontend/hints.cl): its
// alias-scope declarations, which SPIRV-Tools' linker cannot read, are dropped before the link.
TEST_F(IcdProgramLink, AllExtensionsBinaryLinks) {
  std::vector<uint32_t> words = readWords(corpusDir() / "frontend" / "hints.O2.all.spv");
  size_t size = words.size() * sizeof(uint32_t);
  const unsigned char* binaries[] = {reinterpret_cast<const unsigned char*>(words.data())};
  cl_int status = CL_INVALID_VALUE, error = CL_SUCCESS;
  Program binary(clCreateProgramWithBinary(context_, 1, &device_, &size, binaries, &status, &error));
  ASSERT_CL_SUCCESS(error);
  cl_program inputs[] = {binary};
  Program linked(clLinkProgram(context_, 1, &device_, "", 1, inputs, nullptr, nullptr, &error));
  ASSERT_CL_SUCCESS(error) << programBuildLog(linked, device_);

  const cl_int n = 40, a = 3;
  std::vector<cl_int> y(2 * n), x(2 * n);
  for (cl_int i = 0; i < 2 * n; ++i) {
    y[i] = 5 * i - 70;
    x[i] = 11 - 2 * i;
  }
  Kernel kernel = createKernel(linked, "restrict_halves");
  Buffer dy = bufferOf(y), dx = bufferOf(x);
  setArgs(kernel, dy, dx, a, n);
  run1d(kernel, 1);
  std::vector<cl_int> out = read<cl_int>(dy, 2 * n);
  for (cl_int i = 0; i < 2 * n; ++i) ASSERT_EQ(out[i], y[i] + a * x[i]) << i;
}

TEST_F(IcdProgramLink, MissingCompilerFailsTheBuildWithAClearLog) {
  ScopedEnvironment missing("CL2VK_CLANG", "/nonexistent/clang-15");
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_COMPILER_AVAILABLE), static_cast<cl_bool>(CL_FALSE));
  const char* text = "kernel void k(global int* out) { out[0] = 1; }";
  cl_int error = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &error));
  ASSERT_CL_SUCCESS(error);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  std::string log = programBuildLog(program, device_);
  EXPECT_NE(log.find("CL2VK_CLANG"), std::string::npos) << log;
  EXPECT_NE(log.find("/nonexistent/clang-15"), std::string::npos) << log;
  cl_build_status status = CL_BUILD_NONE;
  ASSERT_CL_SUCCESS(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr));
  EXPECT_EQ(status, CL_BUILD_ERROR);
}

}  // namespace
}  // namespace cl2vk::test
