#include "runtime/kernel.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstring>

#include "runtime/sampler.h"

namespace cl2vk::runtime {
namespace {

cl_kernel_arg_address_qualifier addressQualifier(ArgumentKind kind) {
  switch (kind) {
    case ArgumentKind::kGlobalPointer: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case ArgumentKind::kConstantPointer: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case ArgumentKind::kLocalPointer: return CL_KERNEL_ARG_ADDRESS_LOCAL;
    case ArgumentKind::kImage: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case ArgumentKind::kValue:
    case ArgumentKind::kSampler: break;
  }
  return CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

cl_kernel_arg_access_qualifier accessQualifier(const KernelArgument& argument) {
  if (argument.kind != ArgumentKind::kImage) return CL_KERNEL_ARG_ACCESS_NONE;
  if (argument.access == "write_only") return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  if (argument.access == "read_write") return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  return CL_KERNEL_ARG_ACCESS_READ_ONLY;
}

// The memory object type an image argument of OpenCL type `type` ("image2d_t") takes.
cl_mem_object_type imageObjectType(const std::string& type) {
  if (type == "image1d_t") return CL_MEM_OBJECT_IMAGE1D;
  if (type == "image1d_buffer_t") return CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if (type == "image1d_array_t") return CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (type == "image2d_array_t") return CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (type == "image3d_t") return CL_MEM_OBJECT_IMAGE3D;
  return CL_MEM_OBJECT_IMAGE2D;
}

bool isBuffer(ArgumentKind kind) {
  return kind == ArgumentKind::kGlobalPointer || kind == ArgumentKind::kConstantPointer;
}

size_t subgroupSize(const Device& device) { return std::max<uint32_t>(device.info().subgroup.size, 1); }

}  // namespace

std::shared_ptr<Kernel> Kernel::create(std::shared_ptr<Program> program, const std::string& name, cl_int* error) {
  std::shared_ptr<const Translation> translation = program->anyTranslation();
  if (!translation) {
    *error = CL_INVALID_PROGRAM_EXECUTABLE;
    return nullptr;
  }
  for (const KernelReflection& reflection : translation->reflection.kernels) {
    if (reflection.name != name) continue;
    std::shared_ptr<Kernel> kernel(new Kernel(program, reflection));
    kernel->arguments_.resize(reflection.arguments.size());
    program->attachKernel();
    *error = CL_SUCCESS;
    return kernel;
  }
  *error = CL_INVALID_KERNEL_NAME;
  return nullptr;
}

Kernel::~Kernel() { program_->detachKernel(); }

std::shared_ptr<Kernel> Kernel::clone(cl_int* error) {
  std::shared_ptr<Kernel> copy(new Kernel(program_, reflection_));
  {
    std::lock_guard lock(mutex_);
    copy->arguments_ = arguments_;
  }
  program_->attachKernel();
  *error = CL_SUCCESS;
  return copy;
}

cl_int Kernel::setArgument(cl_uint index, size_t size, const void* value) {
  if (index >= reflection_.arguments.size()) return CL_INVALID_ARG_INDEX;
  const KernelArgument& param = reflection_.arguments[index];
  StoredArgument argument;
  argument.set = true;
  if (isBuffer(param.kind)) {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem handle = value == nullptr ? nullptr : *static_cast<const cl_mem*>(value);
    if (handle != nullptr) {
      std::shared_ptr<Memory> memory = Memory::find(handle);
      if (!memory || &memory->context() != &program_->context() || memory->image()) return CL_INVALID_MEM_OBJECT;
      argument.buffer = true;
      argument.memory = memory;
    }
  } else if (param.kind == ArgumentKind::kImage) {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    std::shared_ptr<Memory> memory = value == nullptr ? nullptr : Memory::find(*static_cast<const cl_mem*>(value));
    if (!memory || &memory->context() != &program_->context() || !memory->image() ||
        memory->image()->type != imageObjectType(param.type))
      return CL_INVALID_MEM_OBJECT;
    // A read_only argument cannot take a write-only image, nor a write_only one a read-only image.
    if ((param.access == "read_only" && (memory->flags() & CL_MEM_WRITE_ONLY)) ||
        (param.access == "write_only" && (memory->flags() & CL_MEM_READ_ONLY)))
      return CL_INVALID_ARG_VALUE;
    argument.buffer = true;
    argument.image = true;
    argument.memory = memory;
  } else if (param.kind == ArgumentKind::kSampler) {
    if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
    std::shared_ptr<Sampler> sampler =
        value == nullptr ? nullptr : Sampler::find(*static_cast<const cl_sampler*>(value));
    if (!sampler || &sampler->context() != &program_->context()) return CL_INVALID_SAMPLER;
    uint32_t bits = sampler->bits();
    argument.bytes.resize(sizeof bits);
    std::memcpy(argument.bytes.data(), &bits, sizeof bits);
  } else if (param.kind == ArgumentKind::kLocalPointer) {
    if (value != nullptr) return CL_INVALID_ARG_VALUE;
    if (size == 0) return CL_INVALID_ARG_SIZE;
    argument.localSize = size;
  } else {
    if (size != param.size) return CL_INVALID_ARG_SIZE;
    if (value == nullptr) return CL_INVALID_ARG_VALUE;
    argument.bytes.resize(size);
    std::memcpy(argument.bytes.data(), value, size);
  }
  std::lock_guard lock(mutex_);
  arguments_[index] = std::move(argument);
  return CL_SUCCESS;
}

std::optional<std::vector<ArgumentValue>> Kernel::arguments() const {
  std::lock_guard lock(mutex_);
  std::vector<ArgumentValue> values;
  for (const StoredArgument& stored : arguments_) {
    ArgumentValue value;
    value.set = stored.set;
    value.bytes = stored.bytes;
    value.localSize = stored.localSize;
    value.image = stored.image;
    if (stored.buffer) {
      value.memory = stored.memory.lock();
      if (!value.memory) return std::nullopt;
    }
    values.push_back(std::move(value));
  }
  return values;
}

std::optional<cl_uint> Kernel::firstUnsetArgument() const {
  std::lock_guard lock(mutex_);
  for (cl_uint i = 0; i < arguments_.size(); ++i) {
    if (!arguments_[i].set) return i;
  }
  return std::nullopt;
}

size_t Kernel::localArgumentBytes() const {
  std::lock_guard lock(mutex_);
  size_t total = 0;
  for (const StoredArgument& argument : arguments_) total += argument.localSize;
  return total;
}

Expected<launch::LaunchableKernel*> Kernel::launcher(Device& device) {
  return program_->launcher(device, reflection_.name);
}

cl_int Kernel::getInfo(cl_kernel_info param, const InfoOut& out) {
  switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return out.string(reflection_.name);
    case CL_KERNEL_NUM_ARGS: return out.scalar<cl_uint>(static_cast<cl_uint>(reflection_.arguments.size()));
    case CL_KERNEL_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_KERNEL_CONTEXT: return out.scalar<cl_context>(program_->context().handle());
    case CL_KERNEL_PROGRAM: return out.scalar<cl_program>(program_->handle());
    case CL_KERNEL_ATTRIBUTES: return out.string(program_->kernelAttributes(reflection_.name));
    default: return CL_INVALID_VALUE;
  }
}

cl_int Kernel::getArgInfo(cl_uint index, cl_kernel_arg_info param, const InfoOut& out) {
  if (index >= reflection_.arguments.size()) return CL_INVALID_ARG_INDEX;
  const KernelArgument& argument = reflection_.arguments[index];
  switch (param) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
      return out.scalar<cl_kernel_arg_address_qualifier>(addressQualifier(argument.kind));
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: return out.scalar<cl_kernel_arg_access_qualifier>(accessQualifier(argument));
    case CL_KERNEL_ARG_TYPE_NAME: {
      std::vector<std::string> names = program_->argumentMetadata("kernel_arg_type", reflection_.name);
      return out.string(index < names.size() ? names[index] : argument.type);
    }
    case CL_KERNEL_ARG_TYPE_QUALIFIER: {
      std::vector<std::string> qualifiers = program_->argumentMetadata("kernel_arg_type_qual", reflection_.name);
      std::string words = index < qualifiers.size() ? qualifiers[index] : "";
      cl_kernel_arg_type_qualifier bits = CL_KERNEL_ARG_TYPE_NONE;
      if (words.find("const") != std::string::npos || argument.kind == ArgumentKind::kConstantPointer)
        bits |= CL_KERNEL_ARG_TYPE_CONST;
      if (words.find("restrict") != std::string::npos) bits |= CL_KERNEL_ARG_TYPE_RESTRICT;
      if (words.find("volatile") != std::string::npos) bits |= CL_KERNEL_ARG_TYPE_VOLATILE;
      if (words.find("pipe") != std::string::npos) bits |= CL_KERNEL_ARG_TYPE_PIPE;
      return out.scalar<cl_kernel_arg_type_qualifier>(bits);
    }
    case CL_KERNEL_ARG_NAME: return out.string(argument.name);
    default: return CL_INVALID_VALUE;
  }
}

cl_int Kernel::getWorkGroupInfo(Device& device, cl_kernel_work_group_info param, const InfoOut& out) {
  switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar<size_t>(device.maxWorkGroupSize());
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      std::vector<size_t> size(3, 0);
      if (reflection_.requiredWorkGroupSize)
        size.assign(reflection_.requiredWorkGroupSize->begin(), reflection_.requiredWorkGroupSize->end());
      return out.array(size);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE: return out.scalar<cl_ulong>(localArgumentBytes() + reflection_.workgroupBytes);
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out.scalar<size_t>(subgroupSize(device));
    case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar<cl_ulong>(0);
    case CL_KERNEL_GLOBAL_WORK_SIZE: return CL_INVALID_VALUE;  // built-in kernels and custom devices only
    default: return CL_INVALID_VALUE;
  }
}

// The queries answer for the sub-groups the kernel's builtins compute (Device::subgroupCount).
cl_int Kernel::getSubGroupInfo(Device& device, cl_kernel_sub_group_info param, size_t inputSize, const void* input,
                               const InfoOut& out) {
  if (!device.capabilities().subgroups) return CL_INVALID_OPERATION;  // no sub-groups to ask about
  const size_t* sizes = static_cast<const size_t*>(input);
  const size_t lanes = reflection_.requiredSubgroupSize.value_or(device.subgroupLanes());
  auto workGroup = [&]() -> std::optional<std::vector<size_t>> {
    if (input == nullptr || inputSize == 0 || inputSize % sizeof(size_t) != 0 || inputSize > 3 * sizeof(size_t))
      return std::nullopt;
    return std::vector<size_t>(sizes, sizes + inputSize / sizeof(size_t));
  };
  switch (param) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
      std::optional<std::vector<size_t>> local = workGroup();
      if (!local) return CL_INVALID_VALUE;
      if (param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
        return out.scalar<size_t>(device.maxSubgroupSize(*local, lanes));
      return out.scalar<size_t>(device.subgroupCount(*local, lanes));
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
      // A 1D work-group of count full sub-groups (which any packing makes count sub-groups of),
      // or zeros when none of that many fits.
      if (input == nullptr || inputSize != sizeof(size_t)) return CL_INVALID_VALUE;
      size_t dimensions = out.value != nullptr ? out.size / sizeof(size_t) : 3;
      if (dimensions == 0 || dimensions > 3) return CL_INVALID_VALUE;
      std::vector<size_t> local(dimensions, 1);
      size_t items = sizes[0] * lanes;
      local[0] = items <= device.maxWorkGroupSize() ? items : 0;
      if (local[0] == 0) std::fill(local.begin(), local.end(), 0);
      return out.array(local);
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS: {
      // The largest work-group this kernel launches with: its reqd_work_group_size, if any.
      if (reflection_.requiredWorkGroupSize) {
        const std::array<uint32_t, 3>& required = *reflection_.requiredWorkGroupSize;
        return out.scalar<size_t>(device.subgroupCount({required[0], required[1], required[2]}, lanes));
      }
      return out.scalar<size_t>(device.maxSubgroups());
    }
    // OpenCL C has no way to ask for a number of sub-groups (SPIR-V's SubgroupsPerWorkgroup).
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return out.scalar<size_t>(0);
    // cl_intel_required_subgroup_size: the kernel's intel_reqd_sub_group_size, or 0.
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
      return out.scalar<size_t>(reflection_.requiredSubgroupSize.value_or(0));
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
