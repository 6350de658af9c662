#include "cl2vk/reflection.h"

#include <algorithm>
#include <sstream>

#include "support/json.h"

namespace cl2vk {
namespace {

std::string quoted(const std::string& text) { return jsonQuoted(text); }

const char* boolean(bool value) { return value ? "true" : "false"; }

}  // namespace

const char* argumentKindName(ArgumentKind kind) {
  switch (kind) {
    case ArgumentKind::kGlobalPointer: return "global_pointer";
    case ArgumentKind::kConstantPointer: return "constant_pointer";
    case ArgumentKind::kLocalPointer: return "local_pointer";
    case ArgumentKind::kValue: return "value";
    case ArgumentKind::kImage: return "image";
    case ArgumentKind::kSampler: return "sampler";
  }
  return "?";
}

const char* printfArgumentKindName(PrintfArgument::Kind kind) {
  switch (kind) {
    case PrintfArgument::Kind::kInt: return "int";
    case PrintfArgument::Kind::kFloat: return "float";
    case PrintfArgument::Kind::kPointer: return "pointer";
    case PrintfArgument::Kind::kString: return "string";
  }
  return "?";
}

std::vector<uint8_t> GlobalVariablesLayout::allInitialBytes() const {
  std::vector<uint8_t> all(size, 0);
  for (const InitialBytes& run : initialBytes) std::copy(run.bytes.begin(), run.bytes.end(), all.begin() + run.offset);
  return all;
}

KernelReflection* ModuleReflection::kernel(const std::string& name) {
  for (KernelReflection& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string toJson(const ModuleReflection& reflection) {
  std::ostringstream out;
  out << "{\n  \"kernels\": [";
  for (size_t k = 0; k < reflection.kernels.size(); ++k) {
    const KernelReflection& kernel = reflection.kernels[k];
    out << (k ? "," : "") << "\n    {\n      \"name\": " << quoted(kernel.name) << ",\n      \"arguments\": [";
    for (size_t a = 0; a < kernel.arguments.size(); ++a) {
      const KernelArgument& arg = kernel.arguments[a];
      out << (a ? "," : "") << "\n        {\"name\": " << quoted(arg.name) << ", \"kind\": \""
          << argumentKindName(arg.kind) << "\", \"type\": " << quoted(arg.type) << ", \"address_space\": \""
          << arg.addressSpace << "\", \"offset\": " << arg.offset << ", \"size\": " << arg.size
          << ", \"read_only\": " << boolean(arg.readOnly);
      if (arg.kind == ArgumentKind::kLocalPointer)
        out << ", \"spec_id\": " << arg.localSpecId << ", \"element_size\": " << arg.localElementSize;
      if (arg.kind == ArgumentKind::kImage)
        out << ", \"access\": \"" << arg.access << "\", \"layout_spec_ids\": [" << arg.formatSpecId << ", "
            << arg.formatSpecId + 1 << ", " << arg.formatSpecId + 2 << "]";
      out << "}";
    }
    out << (kernel.arguments.empty() ? "" : "\n      ") << "],\n";
    out << "      \"work_group_size_spec_ids\": [" << SpecIds::kWorkGroupSize << ", " << SpecIds::kWorkGroupSize + 1
        << ", " << SpecIds::kWorkGroupSize + 2 << "],\n";
    out << "      \"enqueued_work_group_size_spec_ids\": [" << SpecIds::kEnqueuedWorkGroupSize << ", "
        << SpecIds::kEnqueuedWorkGroupSize + 1 << ", " << SpecIds::kEnqueuedWorkGroupSize + 2 << "],\n";
    out << "      \"required_work_group_size\": ";
    if (kernel.requiredWorkGroupSize) {
      const auto& size = *kernel.requiredWorkGroupSize;
      out << "[" << size[0] << ", " << size[1] << ", " << size[2] << "]";
    } else {
      out << "null";
    }
    out << ",\n      \"uses_dispatch_info\": " << boolean(kernel.usesDispatchInfo)
        << ",\n      \"argument_buffer\": " << boolean(kernel.argumentBuffer)
        << ",\n      \"arguments_offset\": " << kernel.argumentsOffset
        << ",\n      \"arguments_size\": " << kernel.argumentsSize
        << ",\n      \"push_constant_size\": " << kernel.pushConstantSize;
    if (kernel.freeWorkGroups) out << ",\n      \"free_work_groups\": true";
    if (kernel.requiredSubgroupSize) out << ",\n      \"required_subgroup_size\": " << *kernel.requiredSubgroupSize;
    if (kernel.printfBufferOffset) out << ",\n      \"printf_buffer_offset\": " << *kernel.printfBufferOffset;
    if (kernel.globalVariablesOffset) out << ",\n      \"global_variables_offset\": " << *kernel.globalVariablesOffset;
    if (kernel.loopLimitFlagOffset) out << ",\n      \"loop_limit_flag_offset\": " << *kernel.loopLimitFlagOffset;
    if (kernel.privateScratchOffset) {
      out << ",\n      \"private_scratch_offset\": " << *kernel.privateScratchOffset
          << ",\n      \"private_scratch_stride\": " << kernel.privateScratchStride;
    }
    out << ",\n      \"collectives\": {\"rewritten\": " << kernel.collectives.collectives
        << ", \"work_group_barriers\": " << kernel.collectives.barriers
        << ", \"scratch_bytes\": " << kernel.collectives.scratchBytes << "}\n    }";
  }
  out << (reflection.kernels.empty() ? "" : "\n  ") << "],\n";
  if (!reflection.printfFormats.empty()) {
    out << "  \"printf_formats\": [";
    for (size_t f = 0; f < reflection.printfFormats.size(); ++f) {
      const PrintfFormat& format = reflection.printfFormats[f];
      out << (f ? "," : "") << "\n    {\"format\": " << quoted(format.format) << ", \"arguments\": [";
      for (size_t a = 0; a < format.arguments.size(); ++a) {
        const PrintfArgument& arg = format.arguments[a];
        out << (a ? ", " : "") << "{\"kind\": \"" << printfArgumentKindName(arg.kind) << "\"";
        if (arg.kind == PrintfArgument::Kind::kString)
          out << ", \"text\": " << quoted(arg.text);
        else
          out << ", \"components\": " << arg.components << ", \"bits\": " << arg.bits;
        out << "}";
      }
      out << "]}";
    }
    out << "\n  ],\n";
  }
  const GlobalVariablesLayout& globals = reflection.globalVariables;
  if (globals.size > 0) {
    out << "  \"global_variables\": {\"size\": " << globals.size << ", \"variables\": [";
    for (size_t v = 0; v < globals.variables.size(); ++v)
      out << (v ? ", " : "") << "{\"name\": " << quoted(globals.variables[v].name)
          << ", \"offset\": " << globals.variables[v].offset << ", \"size\": " << globals.variables[v].size << "}";
    out << "], \"pointers\": [";
    for (size_t p = 0; p < globals.pointers.size(); ++p)
      out << (p ? ", " : "") << "{\"offset\": " << globals.pointers[p].offset
          << ", \"addend\": " << globals.pointers[p].addend << "}";
    out << "]},\n";
  }
  const ModuleRequirements& r = reflection.requirements;
  out << "  \"requirements\": {\n";
  out << "    \"int8\": " << boolean(r.int8) << ", \"int16\": " << boolean(r.int16)
      << ", \"int64\": " << boolean(r.int64) << ",\n    \"float16\": " << boolean(r.float16)
      << ", \"float64\": " << boolean(r.float64)
      << ",\n    \"storage_buffer_8bit_access\": " << boolean(r.storageBuffer8BitAccess)
      << ", \"storage_buffer_16bit_access\": " << boolean(r.storageBuffer16BitAccess)
      << ",\n    \"int64_atomics\": " << boolean(r.int64Atomics)
      << ",\n    \"subgroup_basic\": " << boolean(r.subgroupBasic) << ", \"subgroup_vote\": " << boolean(r.subgroupVote)
      << ", \"subgroup_arithmetic\": " << boolean(r.subgroupArithmetic)
      << ", \"subgroup_ballot\": " << boolean(r.subgroupBallot)
      << ", \"subgroup_shuffle\": " << boolean(r.subgroupShuffle)
      << ", \"subgroup_shuffle_relative\": " << boolean(r.subgroupShuffleRelative) << ",\n    \"capabilities\": [";
  for (size_t i = 0; i < r.capabilities.size(); ++i) out << (i ? ", " : "") << quoted(r.capabilities[i]);
  out << "],\n    \"extensions\": [";
  for (size_t i = 0; i < r.extensions.size(); ++i) out << (i ? ", " : "") << quoted(r.extensions[i]);
  out << "]\n  }\n}\n";
  return out.str();
}

}  // namespace cl2vk
