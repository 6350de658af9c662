#include "passes/check_supported.h"


#include <spirv/unified1/OpenCL.std.h>

#include "ir/call_graph.h"
#include "ir/collectives.h"

namespace cl2vk {
namespace {

using ir::Function;
using ir::Instruction;
using ir::Module;

// The unsupported construct an instruction belongs to, or "".
std::string constructOf(const Module& module, const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpTypeImage:
    case spv::Op::OpTypeSampledImage:
    case spv::Op::OpImageRead:
    case spv::Op::OpImageWrite:
    case spv::Op::OpImageQuerySizeLod:
    case spv::Op::OpImageQuerySize:
    case spv::Op::OpImageQueryFormat:
    case spv::Op::OpImageQueryOrder:
    case spv::Op::OpImageSampleExplicitLod:
      return "images";
    case spv::Op::OpTypeSampler:
    case spv::Op::OpConstantSampler:
    case spv::Op::OpSampledImage:
      return "samplers";
    case spv::Op::OpTypePipe:
    case spv::Op::OpTypePipeStorage:
    case spv::Op::OpTypeReserveId:
    case spv::Op::OpReadPipe:
    case spv::Op::OpWritePipe:
    case spv::Op::OpReserveReadPipePackets:
    case spv::Op::OpReserveWritePipePackets:
      return "pipes";
    case spv::Op::OpTypeQueue:
    case spv::Op::OpTypeDeviceEvent:
    case spv::Op::OpEnqueueKernel:
    case spv::Op::OpEnqueueMarker:
    case spv::Op::OpGetDefaultQueue:
    case spv::Op::OpBuildNDRange:
    case spv::Op::OpGetKernelWorkGroupSize:
    case spv::Op::OpGetKernelNDrangeMaxSubGroupSize:
    case spv::Op::OpGetKernelNDrangeSubGroupCount:
    case spv::Op::OpGetKernelPreferredWorkGroupSizeMultiple:
      return "device-side enqueue";
    case spv::Op::OpConstantFunctionPointerINTEL:
    case spv::Op::OpFunctionPointerCallINTEL:
      return "function pointers";
    case spv::Op::OpGroupAsyncCopy:
    case spv::Op::OpGroupWaitEvents:
      return "async_work_group_copy and wait_group_events";
    case spv::Op::OpExtInst: {
      const Instruction* set = module.def(inst.idOperand(0));
      if (set && set->stringOperand(0) == "OpenCL.std" && inst.wordOperand(1) == OpenCLLIB::Printf)
        return "printf";
      return "";
    }
    default:
      return "";
  }
}

}  // namespace

Expected<PassResult> checkSupported(Module& module, const Target&) {
  // Every Vulkan entry point comes from a kernel; a module without one (a library of functions
  // for linking) would come out as a module Vulkan does not accept.
  if (module.section(ir::Section::kEntryPoint).empty())
    return Error("the module has no kernel (no OpEntryPoint): cl2vk translates kernels, and a Vulkan module "
                 "needs at least one; link a library of functions into the program that calls it first");
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    std::string construct = constructOf(module, inst);
    if (!construct.empty())
      return Error(module.describe(inst) + ": " + construct + (construct == "device-side enqueue" ? " is" : " are") +
                   " not supported by cl2vk");
  }
  for (const Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        std::string construct = constructOf(module, inst);
        if (construct.empty()) continue;
        std::string kernel = ir::kernelReaching(module, function);
        std::string verb = construct == "printf" || construct == "device-side enqueue" ? " is" : " are";
        return Error("kernel '" + kernel + "': " + module.describe(inst) + ": " + construct + verb + " not supported by cl2vk");
      }
    }
  }
  return PassResult::kUnchanged;
}

}  // namespace cl2vk
