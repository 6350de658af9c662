#include "runtime/program.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/linker.hpp>

#include <algorithm>
#include <cstring>

#include "cl2vk/specialization.h"
#include "cl2vk/spirv.h"
#include "launch/kernel_launch.h"
#include "runtime/program_binary.h"
#include "runtime/translation_dump.h"

namespace cl2vk::runtime {
namespace {

constexpr uint32_t kOpString = 7;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kExecutionModelKernel = 6;

// Every OpString literal of a SPIR-V module (llvm-spirv keeps -cl-kernel-arg-info's type names
// there, as "kernel_arg_type.<kernel>.<type>,<type>,").
std::vector<std::string> moduleStrings(const std::vector<uint32_t>& words) {
  std::vector<std::string> strings;
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16;
    uint32_t opcode = words[at] & 0xFFFF;
    if (count == 0 || at + count > words.size()) break;
    if (opcode == kOpString && count > 2) {
      const char* text = reinterpret_cast<const char*>(&words[at + 2]);
      strings.emplace_back(text, strnlen(text, 4 * (count - 2)));
    }
    at += count;
  }
  return strings;
}

// Whether the module has a kernel entry point. OpenCL lets a program have none (helper functions
// only): it builds, and has no kernels.
bool hasKernel(const std::vector<uint32_t>& words) {
  for (size_t at = 5; at < words.size();) {
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) break;
    if ((words[at] & 0xFFFF) == kOpEntryPoint && count > 1 && words[at + 1] == kExecutionModelKernel) return true;
    at += count;
  }
  return false;
}

std::vector<std::string> splitTypes(const std::string& list) {
  std::vector<std::string> types;
  std::string current;
  int depth = 0;  // commas inside "struct {...}" are not separators
  for (char c : list) {
    if (c == '(' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == '}' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      types.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) types.push_back(current);  // llvm-spirv ends the list with a comma
  return types;
}

// The options of clLinkProgram less the two only it takes: -create-library (sets `library`) and
// -enable-link-options. What remains (optimisation and math options) has no effect on IL that is
// already compiled, but must still be valid.
std::string withoutLinkOptions(const std::string& options, bool* library) {
  std::string rest;
  size_t start = 0;
  while (start < options.size()) {
    size_t end = std::min(options.find(' ', start), options.size());
    std::string word = options.substr(start, end - start);
    if (word == "-create-library") {
      *library = true;
    } else if (word != "-enable-link-options" && !word.empty()) {
      rest += word + " ";
    }
    start = end + 1;
  }
  return rest;
}

// Whether the options ask for work-groups of equal size (-cl-uniform-work-group-size).
bool asksForUniformWorkGroups(const BuildOptions& options) {
  return std::find(options.clangArguments.begin(), options.clangArguments.end(), "-cl-uniform-work-group-size") !=
         options.clangArguments.end();
}

}  // namespace

std::shared_ptr<Program> Program::fromSource(std::shared_ptr<Context> context, std::string source) {
  auto program = std::shared_ptr<Program>(new Program(std::move(context), Origin::kSource));
  program->source_ = std::move(source);
  return program;
}

std::shared_ptr<Program> Program::fromIL(std::shared_ptr<Context> context, std::vector<uint32_t> words, Origin origin) {
  auto program = std::shared_ptr<Program>(new Program(std::move(context), origin));
  program->il_ = std::move(words);
  return program;
}

bool Program::translateFor(Device& device, DeviceBuild& build) {
  // The program's math options adjust what the device allows; the loop limit is measured when a
  // Vulkan device is opened (vulkan/loop_limit_probe.h), after the platform listed its devices.
  Target target = device.target();
  target.relaxedMath = build.relaxedMath;
  if (build.denormsAreZero) target.denormPreserveFloat32 = false;
  target.loopIterationLimit = context_->vulkanDevice(device).info().loopIterationLimit;
  Expected<std::vector<uint32_t>> il = specializations_.empty() ? il_ : specialize(il_, specializations_);
  Expected<Translation> translation = !il              ? Expected<Translation>(il.error())
                                      : hasKernel(*il) ? translate(*il, target)
                                                       : Translation{};
  if (il && hasKernel(*il)) dumpTranslation(*il, target, translation, device.info().name);
  if (!translation) {
    build.status = CL_BUILD_ERROR;
    build.log +=
        "cl2vk: cannot translate the program for " + device.info().name + ": " + translation.error().message() + "\n";
    return false;
  }
  // The program-scope variables get their buffer now, with their initial values, for the
  // program's lifetime: every launch of every kernel of this build shares it.
  Expected<std::shared_ptr<vulkan::Buffer>> globals =
      launch::createGlobalVariables(context_->vulkanDevice(device), translation->reflection.globalVariables);
  if (!globals) {
    build.status = CL_BUILD_ERROR;
    build.log += "cl2vk: cannot allocate the program-scope variables on " + device.info().name + ": " +
                 globals.error().message() + "\n";
    return false;
  }
  build.globalVariables = std::move(*globals);
  build.translation = std::make_shared<const Translation>(std::move(*translation));
  build.status = CL_BUILD_SUCCESS;
  build.binaryType = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  return true;
}

bool Program::compileSource(const std::vector<Device*>& devices, const BuildOptions& options,
                            const std::vector<SourceHeader>& headers) {
  // One compilation serves every device with the same capabilities; the first device's are used,
  // and a device that lacks what they allow fails at translation with a clear message.
  CompileRequest request;
  request.source = source_;
  request.options = options;
  request.headers = headers;
  request.disabledExtensions = devices.front()->capabilities().disabledForCompiler();
  request.undefinedMacros = devices.front()->capabilities().undefinedForCompiler();
  request.definedExtensions = devices.front()->capabilities().definedForCompiler();
  CompileResult result = runtime::compileSource(request);
  for (Device* device : devices) {
    DeviceBuild& build = builds_[device];
    build.log = result.log;
    if (!result.success) build.status = CL_BUILD_ERROR;
  }
  if (result.success) il_ = std::move(result.spirv);
  return result.success;
}

bool Program::checkIL(const std::vector<Device*>& devices) {
  // What the translator repairs before it validates its input (docs/frontend.md) is no error here.
  Expected<Translation> repaired = runPasses(il_, {"repair-llvm-spirv", "drop-optimization-hints"}, Target{});
  Status valid = repaired ? validate(repaired->spirv, universalEnvironment(il_.size() > 1 ? il_[1] : 0))
                          : Status(repaired.error());
  if (valid.ok()) return true;
  for (Device* device : devices) {
    DeviceBuild& build = builds_[device];
    build.status = CL_BUILD_ERROR;
    build.log = "cl2vk: the IL is not valid SPIR-V: " + valid.error().message() + "\n";
  }
  return false;
}

cl_int Program::setSpecializationConstant(uint32_t id, std::span<const uint8_t> value) {
  if (origin_ != Origin::kIL) return CL_INVALID_PROGRAM;
  std::lock_guard lock(mutex_);
  Expected<std::map<uint32_t, uint32_t>> constants = specializationConstants(il_);
  if (!constants) return CL_INVALID_PROGRAM;
  auto found = constants->find(id);
  if (found == constants->end()) return CL_INVALID_SPEC_ID;
  if (value.data() == nullptr || value.size() != found->second) return CL_INVALID_VALUE;
  specializations_[id] = std::vector<uint8_t>(value.begin(), value.end());
  return CL_SUCCESS;
}

cl_int Program::build(const std::vector<Device*>& devices, const std::string& options) {
  if (attachedKernels_ > 0) return CL_INVALID_OPERATION;
  std::lock_guard lock(mutex_);
  Expected<BuildOptions> parsed = parseBuildOptions(options);
  for (Device* device : devices) {
    DeviceBuild& build = builds_[device];
    build = DeviceBuild{};
    build.options = options;
    build.status = CL_BUILD_IN_PROGRESS;
    if (!parsed) {
      build.status = CL_BUILD_ERROR;
      build.log = "cl2vk: " + parsed.error().message() + "\n";
    }
  }
  if (!parsed) return CL_INVALID_BUILD_OPTIONS;
  // OpenCL C 1.x has no non-uniform work-groups: its programs get the behaviour of
  // -cl-uniform-work-group-size (the default language version is 1.2).
  bool uniform =
      asksForUniformWorkGroups(*parsed) || (origin_ == Origin::kSource && parsed->languageVersion.starts_with("CL1"));
  if (origin_ == Origin::kSource && !compileSource(devices, *parsed, {})) return CL_BUILD_PROGRAM_FAILURE;
  bool ok = true;
  for (Device* device : devices) {
    DeviceBuild& build = builds_[device];
    build.uniformWorkGroups = uniform;
    build.relaxedMath = parsed->relaxedMath;
    build.denormsAreZero = parsed->denormsAreZero;
    ok &= translateFor(*device, build);
  }
  return ok ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
}

cl_int Program::compile(const std::vector<Device*>& devices, const std::string& options,
                        const std::vector<SourceHeader>& headers) {
  if (attachedKernels_ > 0) return CL_INVALID_OPERATION;
  // OpenCL compiles source and IL; a binary is compiled already.
  if (origin_ != Origin::kSource && origin_ != Origin::kIL) return CL_INVALID_OPERATION;
  std::lock_guard lock(mutex_);
  Expected<BuildOptions> parsed = parseBuildOptions(options);
  for (Device* device : devices) {
    DeviceBuild& build = builds_[device];
    build = DeviceBuild{};
    build.options = options;
    if (!parsed) {
      build.status = CL_BUILD_ERROR;
      build.log = "cl2vk: " + parsed.error().message() + "\n";
    }
  }
  if (!parsed) return CL_INVALID_COMPILER_OPTIONS;
  // An IL program's headers are ignored, as the specification says; its IL is the compiled object.
  if (origin_ == Origin::kIL ? !checkIL(devices) : !compileSource(devices, *parsed, headers))
    return CL_COMPILE_PROGRAM_FAILURE;
  for (Device* device : devices) {
    builds_[device].status = CL_BUILD_SUCCESS;
    builds_[device].binaryType = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  }
  return CL_SUCCESS;
}

std::shared_ptr<Program> Program::link(std::shared_ptr<Context> context, const std::vector<Device*>& devices,
                                       const std::string& options, const std::vector<std::shared_ptr<Program>>& inputs,
                                       cl_int* error) {
  bool library = false;
  Expected<BuildOptions> parsed = parseBuildOptions(withoutLinkOptions(options, &library));
  if (!parsed) {
    *error = CL_INVALID_LINKER_OPTIONS;
    return nullptr;
  }

  std::vector<std::vector<uint32_t>> modules;
  for (const std::shared_ptr<Program>& input : inputs) {
    std::lock_guard lock(input->mutex_);
    // SPIRV-Tools' linker cannot read some of what llvm-spirv-15 --spirv-ext=+all writes (the
    // alias-scope declarations), so each input first gets the translator's own input repair. A
    // module that the repair cannot read goes as it is, for the linker to report.
    Expected<Translation> repaired =
        runPasses(input->il_, {"repair-llvm-spirv", "drop-optimization-hints", "widen-odd-integers"}, Target{});
    modules.push_back(repaired ? std::move(repaired->spirv) : input->il_);
  }
  auto program = std::shared_ptr<Program>(new Program(std::move(context), Origin::kLinked));
  std::string messages;
  spvtools::Context spirv(SPV_ENV_UNIVERSAL_1_4);
  spirv.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
    messages += std::string("cl2vk: link: ") + message + "\n";
  });
  spvtools::LinkerOptions linkerOptions;
  linkerOptions.SetCreateLibrary(library);
  // The OpenCL built-in functions stay imports for the translator to resolve.
  linkerOptions.SetAllowPartialLinkage(true);
  std::vector<uint32_t> linked;
  bool ok = spvtools::Link(spirv, modules, &linked, linkerOptions) == SPV_SUCCESS;
  program->il_ = std::move(linked);
  bool uniform = asksForUniformWorkGroups(*parsed);
  for (Device* device : devices) {
    DeviceBuild& build = program->builds_[device];
    build.options = options;
    build.log = messages;
    build.uniformWorkGroups = uniform;
    build.relaxedMath = parsed->relaxedMath;
    build.denormsAreZero = parsed->denormsAreZero;
    if (!ok) {
      build.status = CL_BUILD_ERROR;
    } else if (library) {
      build.status = CL_BUILD_SUCCESS;
      build.binaryType = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    } else {
      ok &= program->translateFor(*device, build);
    }
  }
  *error = ok ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
  return program;
}

std::shared_ptr<const Translation> Program::translation(Device* device) const {
  std::lock_guard lock(mutex_);
  auto found = builds_.find(device);
  return found == builds_.end() ? nullptr : found->second.translation;
}

Expected<launch::LaunchableKernel*> Program::launcher(Device& device, const std::string& name) {
  std::shared_ptr<const Translation> translation;
  {
    std::lock_guard lock(mutex_);
    auto found = builds_.find(&device);
    if (found == builds_.end() || !found->second.translation)
      return Error("the program is not built for " + device.info().name);
    if (auto known = found->second.launchers.find(name); known != found->second.launchers.end())
      return known->second.get();
    translation = found->second.translation;
  }
  // Splitting the kernel's module out of a large program takes a while, so it runs outside the
  // lock; when two threads race, the first launcher stored wins. The other is dropped before it
  // made any pipeline (a launcher makes them on its first launch).
  Expected<std::unique_ptr<launch::LaunchableKernel>> created =
      launch::LaunchableKernel::create(context_->vulkanDevice(device), translation, name);
  if (!created) return created.error();
  std::lock_guard lock(mutex_);
  DeviceBuild& build = builds_.at(&device);  // a build is reset, never removed
  if (build.translation != translation) return Error("the program was built again while kernel '" + name + "' ran");
  return build.launchers.emplace(name, std::move(*created)).first->second.get();
}

std::shared_ptr<const Translation> Program::anyTranslation() const {
  std::lock_guard lock(mutex_);
  for (const auto& [device, build] : builds_) {
    if (build.translation) return build.translation;
  }
  return nullptr;
}

bool Program::uniformWorkGroups(Device* device) const {
  std::lock_guard lock(mutex_);
  auto found = builds_.find(device);
  return found != builds_.end() && found->second.uniformWorkGroups;
}

std::shared_ptr<vulkan::Buffer> Program::globalVariables(Device* device) const {
  std::lock_guard lock(mutex_);
  auto found = builds_.find(device);
  return found != builds_.end() ? found->second.globalVariables : nullptr;
}

std::vector<std::string> Program::argumentMetadata(const std::string& what, const std::string& kernel) const {
  std::lock_guard lock(mutex_);
  const std::string prefix = what + "." + kernel + ".";
  for (const std::string& text : moduleStrings(il_)) {
    if (text.rfind(prefix, 0) == 0) return splitTypes(text.substr(prefix.size()));
  }
  return {};
}

std::string Program::kernelAttributes(const std::string& kernel) const {
  std::lock_guard lock(mutex_);
  if (origin_ == Origin::kIL || origin_ == Origin::kBinary) return {};
  const std::string prefix = "kernel_attributes." + kernel + ".";
  for (const std::string& text : moduleStrings(il_)) {
    if (text.rfind(prefix, 0) == 0) return text.substr(prefix.size());
  }
  return {};
}

std::vector<uint32_t> Program::binaryFor(Device* device) const {
  auto found = builds_.find(device);
  return markedBinary(il_, found == builds_.end() ? CL_PROGRAM_BINARY_TYPE_NONE : found->second.binaryType);
}

void Program::loadedBinary(const std::vector<Device*>& devices, cl_program_binary_type type) {
  std::lock_guard lock(mutex_);
  for (Device* device : devices) builds_[device].binaryType = type;
}

cl_int Program::getInfo(cl_program_info param, const InfoOut& out) {
  switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_PROGRAM_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_PROGRAM_NUM_DEVICES: return out.scalar<cl_uint>(static_cast<cl_uint>(context_->devices().size()));
    case CL_PROGRAM_DEVICES: {
      std::vector<cl_device_id> handles(context_->devices().begin(), context_->devices().end());
      return out.array(handles);
    }
    case CL_PROGRAM_SOURCE: return out.string(origin_ == Origin::kSource ? source_ : "");
    case CL_PROGRAM_IL: {
      if (origin_ != Origin::kIL) return out.bytes(nullptr, 0);
      std::lock_guard lock(mutex_);
      return out.bytes(il_.data(), il_.size() * 4);
    }
    case CL_PROGRAM_BINARY_SIZES: {
      std::lock_guard lock(mutex_);
      std::vector<size_t> sizes;
      for (Device* device : context_->devices()) sizes.push_back(binaryFor(device).size() * 4);
      return out.array(sizes);
    }
    case CL_PROGRAM_BINARIES: {
      // An array of pointers to the application's buffers, one per device.
      std::lock_guard lock(mutex_);
      size_t count = context_->devices().size();
      if (out.value != nullptr) {
        if (out.size < count * sizeof(unsigned char*)) return CL_INVALID_VALUE;
        auto** targets = static_cast<unsigned char**>(out.value);
        for (size_t i = 0; i < count; ++i) {
          std::vector<uint32_t> binary = binaryFor(context_->devices()[i]);
          if (targets[i] != nullptr && !binary.empty()) std::memcpy(targets[i], binary.data(), binary.size() * 4);
        }
      }
      if (out.sizeReturned != nullptr) *out.sizeReturned = count * sizeof(unsigned char*);
      return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
      std::shared_ptr<const Translation> translation = anyTranslation();
      if (!translation) return CL_INVALID_PROGRAM_EXECUTABLE;
      if (param == CL_PROGRAM_NUM_KERNELS) return out.scalar<size_t>(translation->reflection.kernels.size());
      std::string names;
      for (const KernelReflection& kernel : translation->reflection.kernels) {
        names += (names.empty() ? "" : ";") + kernel.name;
      }
      return out.string(names);
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return out.scalar<cl_bool>(CL_FALSE);
    default: return CL_INVALID_VALUE;
  }
}

cl_int Program::getBuildInfo(Device* device, cl_program_build_info param, const InfoOut& out) {
  std::lock_guard lock(mutex_);
  DeviceBuild none;
  auto found = builds_.find(device);
  const DeviceBuild& build = found == builds_.end() ? none : found->second;
  switch (param) {
    case CL_PROGRAM_BUILD_STATUS: return out.scalar<cl_build_status>(build.status);
    case CL_PROGRAM_BUILD_OPTIONS: return out.string(build.options);
    case CL_PROGRAM_BUILD_LOG: return out.string(build.log);
    case CL_PROGRAM_BINARY_TYPE: return out.scalar<cl_program_binary_type>(build.binaryType);
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      return out.scalar<size_t>(build.translation ? build.translation->reflection.globalVariables.size : 0);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
