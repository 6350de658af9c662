#include "passes/interface/lower_kernel_interface.h"

#include <algorithm>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/instructions/lower_images.h"
#include "passes/interface/hidden_parameters.h"
#include "passes/interface/word_reader.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

Operand storageClass(spv::StorageClass storage) {
  return Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(storage));
}

void decorate(Module& module, uint32_t id, spv::Decoration decoration, std::vector<uint32_t> values = {}) {
  std::vector<Operand> operands = {Operand::id(id),
                                   Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(decoration))};
  for (uint32_t v : values) operands.push_back(Operand::literal(v));
  module.append(ir::Section::kAnnotation, Instruction(spv::Op::OpDecorate, 0, 0, std::move(operands)));
}

void decorateMember(Module& module, uint32_t structType, uint32_t member, spv::Decoration decoration, uint32_t value) {
  module.append(ir::Section::kAnnotation,
                Instruction(spv::Op::OpMemberDecorate, 0, 0,
                            {Operand::id(structType), Operand::literal(member),
                             Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(decoration)),
                             Operand::literal(value)}));
}

bool hasParamAttribute(const Module& module, uint32_t param, spv::FunctionParameterAttribute attribute) {
  for (const Instruction* decoration : module.decorations(param)) {
    if (decoration->wordOperand(1) == static_cast<uint32_t>(spv::Decoration::FuncParamAttr) &&
        decoration->wordOperand(2) == static_cast<uint32_t>(attribute))
      return true;
  }
  return false;
}

// A struct { uint words[count]; } laid out for push constants or a buffer.
uint32_t wordBlockType(Module& module, uint32_t count, bool block) {
  uint32_t array = module.takeId();
  module.append(ir::Section::kGlobal, Instruction(spv::Op::OpTypeArray, 0, array,
                                                  {Operand::id(ir::typeInt(module, 32)),
                                                   Operand::id(ir::constantUint(module, 32, std::max(count, 1u)))}));
  decorate(module, array, spv::Decoration::ArrayStride, {4});
  uint32_t structType = module.takeId();
  module.append(ir::Section::kGlobal, Instruction(spv::Op::OpTypeStruct, 0, structType, {Operand::id(array)}));
  decorateMember(module, structType, 0, spv::Decoration::Offset, 0);
  if (block) decorate(module, structType, spv::Decoration::Block);
  return structType;
}

// A short description of a type for the reflection ("f32", "v4i32", "struct{f32,i64}").
std::string typeDescription(const Module& module, uint32_t type, int depth = 0) {
  const Instruction* def = module.def(type);
  if (!def || depth > 8) return "?";
  switch (def->opcode()) {
    case spv::Op::OpTypeInt: return "i" + std::to_string(def->wordOperand(0));
    case spv::Op::OpTypeFloat: return "f" + std::to_string(def->wordOperand(0));
    case spv::Op::OpTypeBool: return "bool";
    case spv::Op::OpTypeVector:
      return "v" + std::to_string(def->wordOperand(1)) + typeDescription(module, def->idOperand(0), depth + 1);
    case spv::Op::OpTypeArray: {
      std::optional<uint64_t> length = constantValue(module, def->idOperand(1));
      return typeDescription(module, def->idOperand(0), depth + 1) + "[" + (length ? std::to_string(*length) : "?") +
             "]";
    }
    case spv::Op::OpTypeStruct: {
      std::string text = "struct{";
      for (size_t i = 0; i < def->numOperands(); ++i)
        text += (i ? "," : "") + typeDescription(module, def->idOperand(i), depth + 1);
      return text + "}";
    }
    case spv::Op::OpTypePointer: return typeDescription(module, def->idOperand(1), depth + 1) + "*";
    default: return ir::opcodeName(def->opcode()).substr(2);
  }
}

std::string parameterName(const Module& module, const Instruction& param, size_t index) {
  std::string name = module.name(param.resultId());
  return name.empty() ? "arg" + std::to_string(index) : name;
}

struct Parameter {
  Instruction* inst;
  KernelArgument argument;
  uint32_t valueType = 0;  // the type read from the argument block (pointee for by-value structs)
  bool hidden = false;     // added by a pass (the printf buffer), not an argument of the kernel
};

class KernelLowering {
 public:
  KernelLowering(Module& module, PassContext& context, const std::unordered_map<uint32_t, spv::BuiltIn>& builtins)
      : module_(module), context_(context), builtins_(builtins) {}

  Status run(Instruction& entryPoint) {
    Function* kernel = module_.function(entryPoint.idOperand(1));
    std::string name = entryPoint.stringOperand(2);
    KernelReflection reflection;
    reflection.name = name;

    std::vector<Parameter> params;
    CL2VK_TRY(classifyParameters(*kernel, params));
    reflection.freeWorkGroups =
        context_.target.freeWorkGroups && computesAlikeInAnyWorkGroups(module_, *kernel, builtins_);
    reflection.usesDispatchInfo = reflection.freeWorkGroups || usesDispatchInfo(*kernel);
    layOut(params, reflection);

    uint32_t pushConstants = 0;
    if (reflection.pushConstantSize > 0) {
      uint32_t blockType = wordBlockType(module_, reflection.pushConstantSize / 4, true);
      pushConstants = module_.takeId();
      module_.append(
          ir::Section::kGlobal,
          Instruction(spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::PushConstant, blockType),
                      pushConstants, {storageClass(spv::StorageClass::PushConstant)}));
    }
    WordReader dispatch(module_, pushConstants, spv::StorageClass::PushConstant);

    Builder builder = Builder::after(module_, ir::lastVariable(*kernel));
    WordReader arguments = dispatch;
    if (reflection.argumentBuffer) {
      Expected<uint32_t> address = dispatch.value(builder, ir::typeInt(module_, 64), reflection.argumentsOffset);
      if (!address) return address.error();
      uint32_t bufferType = wordBlockType(module_, reflection.argumentsSize / 4, false);
      uint32_t pointer =
          builder.valueOfIds(spv::Op::OpConvertUToPtr,
                             ir::typePointer(module_, spv::StorageClass::CrossWorkgroup, bufferType), {*address});
      arguments = WordReader(module_, pointer, spv::StorageClass::CrossWorkgroup);
    }

    uint32_t localIndex = 0, imageIndex = 0;
    for (Parameter& param : params) {
      Expected<uint32_t> value = materialize(builder, param, arguments, localIndex, imageIndex);
      if (!value) return value.error().withContext("kernel '" + name + "', argument '" + param.argument.name + "'");
      if (param.argument.name == kPrivateScratchName) {
        reflection.privateScratchOffset = param.argument.offset;
        Expected<TypeLayout> block = layoutOf(module_, ir::pointeeOf(module_, param.inst->typeId()));
        if (!block) return block.error().withContext("kernel '" + name + "', the private scratch block");
        reflection.privateScratchStride = block->size;
        value = invocationBlock(builder, *value, param.inst->typeId());
      }
      module_.replaceAllUses(param.inst->resultId(), *value);
      CL2VK_TRY(module_.remove(param.inst));
      if (param.argument.name == kPrintfBufferName)
        reflection.printfBufferOffset = param.argument.offset;
      else if (param.argument.name == kGlobalVariablesName)
        reflection.globalVariablesOffset = param.argument.offset;
      else if (param.argument.name == kLoopLimitFlagName)
        reflection.loopLimitFlagOffset = param.argument.offset;
      else if (!param.hidden)
        reflection.arguments.push_back(param.argument);
    }
    Instruction& definition = kernel->definition();
    module_.update(&definition, Instruction(spv::Op::OpFunction, definition.typeId(), definition.resultId(),
                                            {definition.operand(0),
                                             Operand::id(ir::typeFunction(module_, definition.typeId(), {}))}));

    Status builtins =
        lowerWorkItemBuiltins(module_, *kernel, builtins_, reflection.usesDispatchInfo ? &dispatch : nullptr,
                              context_.target, reflection.freeWorkGroups);
    if (!builtins.ok()) return builtins.error().withContext("kernel '" + name + "'");
    if (reflection.freeWorkGroups) returnOutsideTheRange(module_, *kernel, dispatch);

    for (const Instruction& mode : module_.section(ir::Section::kExecutionMode)) {
      if (mode.idOperand(0) != kernel->id()) continue;
      if (mode.wordOperand(1) == static_cast<uint32_t>(spv::ExecutionMode::LocalSize))
        reflection.requiredWorkGroupSize =
            std::array<uint32_t, 3>{mode.wordOperand(2), mode.wordOperand(3), mode.wordOperand(4)};
      if (mode.wordOperand(1) == static_cast<uint32_t>(spv::ExecutionMode::SubgroupSize)) {
        CL2VK_TRY(checkSubgroupSize(*kernel, mode.wordOperand(2)));
        reflection.requiredSubgroupSize = mode.wordOperand(2);
      }
    }
    std::vector<Operand> operands = entryPoint.operands();
    operands[0] =
        Operand::enumerant(SPV_OPERAND_TYPE_EXECUTION_MODEL, static_cast<uint32_t>(spv::ExecutionModel::GLCompute));
    module_.update(&entryPoint, Instruction(spv::Op::OpEntryPoint, 0, 0, std::move(operands)));
    context_.reflection.kernels.push_back(std::move(reflection));
    return okStatus();
  }

 private:
  // intel_reqd_sub_group_size(n): a power of two the device's subgroups can be, by request
  // (VK_EXT_subgroup_size_control) or because it is their only size.
  Status checkSubgroupSize(const Function& kernel, uint32_t size) const {
    const Target& target = context_.target;
    bool only = target.minSubgroupSize == target.maxSubgroupSize;
    bool fits = size != 0 && (size & (size - 1)) == 0 && size >= target.minSubgroupSize &&
                size <= target.maxSubgroupSize && (only || target.requiredSubgroupSize);
    if (fits) return okStatus();
    std::string sizes = only
                            ? std::to_string(target.minSubgroupSize)
                            : std::to_string(target.minSubgroupSize) + " to " + std::to_string(target.maxSubgroupSize) +
                                  (target.requiredSubgroupSize ? "" : ", and it cannot be asked for one");
    return ir::refuse(module_, kernel,
                      "intel_reqd_sub_group_size(" + std::to_string(size) +
                          ") (the SubgroupSize execution mode) asks for sub-groups of " + std::to_string(size) +
                          " work-items; this device's have " + sizes);
  }

  Status classifyParameters(Function& kernel, std::vector<Parameter>& params) {
    size_t index = 0;
    for (Instruction& inst : kernel.header()) {
      if (inst.opcode() != spv::Op::OpFunctionParameter) continue;
      Parameter param{&inst, {}, inst.typeId()};
      param.argument.name = parameterName(module_, inst, index);
      param.hidden = isHiddenParameterName(param.argument.name);
      const Instruction* type = module_.def(inst.typeId());
      auto unsupported = [&](const std::string& what) {
        return ir::refuse(module_, kernel,
                          "argument '" + param.argument.name + "' is " + what + ", which is not supported");
      };
      switch (type->opcode()) {
        case spv::Op::OpTypePointer: {
          auto storage = static_cast<spv::StorageClass>(type->wordOperand(0));
          uint32_t pointee = type->idOperand(1);
          param.argument.type = typeDescription(module_, pointee);
          if (storage == spv::StorageClass::CrossWorkgroup) {
            param.argument.kind = ArgumentKind::kGlobalPointer;
            param.argument.addressSpace = "global";
            param.argument.readOnly =
                hasParamAttribute(module_, inst.resultId(), spv::FunctionParameterAttribute::NoWrite);
          } else if (storage == spv::StorageClass::UniformConstant) {
            param.argument.kind = ArgumentKind::kConstantPointer;
            param.argument.addressSpace = "constant";
            param.argument.readOnly = true;
          } else if (storage == spv::StorageClass::Workgroup) {
            param.argument.kind = ArgumentKind::kLocalPointer;
            param.argument.addressSpace = "local";
            Expected<TypeLayout> layout = layoutOf(module_, pointee);
            if (!layout) return unsupported("a __local pointer to a type without a size");
            param.argument.localElementSize = layout->size;
          } else if (storage == spv::StorageClass::Function &&
                     hasParamAttribute(module_, inst.resultId(), spv::FunctionParameterAttribute::ByVal)) {
            param.argument.kind = ArgumentKind::kValue;
            param.valueType = pointee;
          } else {
            return unsupported("a pointer to the " + std::to_string(type->wordOperand(0)) + " storage class");
          }
          break;
        }
        case spv::Op::OpTypeImage:
        case spv::Op::OpTypeSampler: return unsupported("an image or sampler that lower-images did not lower");
        case spv::Op::OpTypePipe: return unsupported("a pipe");
        case spv::Op::OpTypeQueue: return unsupported("a device queue");
        case spv::Op::OpTypeEvent:
        case spv::Op::OpTypeDeviceEvent: return unsupported("an event");
        default:
          param.argument.kind = ArgumentKind::kValue;
          param.argument.type = typeDescription(module_, param.valueType);
          classifyImageRecord(param);
          break;
      }
      if (isPassedByValue(param.argument.kind)) {
        param.argument.addressSpace = "private";
        Expected<TypeLayout> layout = layoutOf(module_, param.valueType);
        if (!layout) return unsupported("of a type without a memory layout (" + layout.error().message() + ")");
      }
      params.push_back(param);
      if (!param.hidden) ++index;
    }
    return okStatus();
  }

  // lower-images' records, known by their names (lower_images.h): image and sampler arguments.
  void classifyImageRecord(Parameter& param) const {
    std::string typeName = module_.name(param.valueType);
    if (typeName == kSamplerRecordName) {
      param.argument.kind = ArgumentKind::kSampler;
      param.argument.type = "sampler_t";
      return;
    }
    std::optional<ImageRecordName> image = parseImageRecordName(typeName);
    if (!image) return;
    param.argument.kind = ArgumentKind::kImage;
    param.argument.type = image->type;
    param.argument.access = image->access;
    param.argument.readOnly = image->access == "read_only";
  }

  static bool isPassedByValue(ArgumentKind kind) {
    return kind == ArgumentKind::kValue || kind == ArgumentKind::kImage || kind == ArgumentKind::kSampler;
  }

  bool usesDispatchInfo(Function& kernel) const {
    for (ir::Block& block : kernel.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() != spv::Op::OpLoad) continue;
        auto it = builtins_.find(inst.idOperand(0));
        if (it != builtins_.end() && builtinNeedsDispatchInfo(it->second)) return true;
      }
    }
    return false;
  }

  void layOut(std::vector<Parameter>& params, KernelReflection& reflection) const {
    uint32_t offset = 0;
    for (Parameter& param : params) {
      KernelArgument& arg = param.argument;
      if (arg.kind == ArgumentKind::kLocalPointer) continue;
      TypeLayout layout = isPassedByValue(arg.kind) ? *layoutOf(module_, param.valueType) : TypeLayout{8, 8};
      offset = alignUp(offset, layout.alignment);
      arg.offset = offset;
      arg.size = layout.size;
      offset += layout.size;
    }
    reflection.argumentsSize = alignUp(offset, 8);
    reflection.argumentsOffset = reflection.freeWorkGroups     ? DispatchInfoLayout::kFreeSize
                                 : reflection.usesDispatchInfo ? DispatchInfoLayout::kSize
                                                               : 0;
    uint32_t inline_ = reflection.argumentsOffset + reflection.argumentsSize;
    reflection.argumentBuffer = inline_ > context_.target.maxPushConstantsSize;
    reflection.pushConstantSize = reflection.argumentBuffer ? reflection.argumentsOffset + 8 : inline_;
    if (!reflection.argumentBuffer) {
      for (Parameter& param : params) {
        if (param.argument.kind != ArgumentKind::kLocalPointer) param.argument.offset += reflection.argumentsOffset;
      }
    }
  }

  // The value that stands for the parameter, read at `arg.offset` of the argument block.
  Expected<uint32_t> materialize(Builder& builder, Parameter& param, const WordReader& arguments, uint32_t& localIndex,
                                 uint32_t& imageIndex) {
    KernelArgument& arg = param.argument;
    uint32_t offset = arg.offset;
    switch (arg.kind) {
      case ArgumentKind::kGlobalPointer:
      case ArgumentKind::kConstantPointer: {
        Expected<uint32_t> address = arguments.value(builder, ir::typeInt(module_, 64), offset);
        if (!address) return address.error();
        return builder.valueOfIds(spv::Op::OpConvertUToPtr, param.inst->typeId(), {*address});
      }
      case ArgumentKind::kImage: {
        Expected<uint32_t> record = arguments.value(builder, param.valueType, offset);
        if (!record) return record;
        arg.formatSpecId = SpecIds::kFirstImageFormat + SpecIds::kImageSpecIds * imageIndex++;
        return specializeLayout(builder, *record, arg.formatSpecId);
      }
      case ArgumentKind::kValue:
      case ArgumentKind::kSampler: {
        Expected<uint32_t> value = arguments.value(builder, param.valueType, offset);
        if (!value || param.valueType == param.inst->typeId()) return value;
        // A struct passed by value: the kernel reads it through a pointer to a private copy.
        uint32_t copy = module_.takeId();
        module_.insertAfter(
            &param.inst->function()->blocks().front().instructions().front(),
            Instruction(spv::Op::OpVariable, param.inst->typeId(), copy, {storageClass(spv::StorageClass::Function)}));
        builder.add(spv::Op::OpStore, 0, {Operand::id(copy), Operand::id(*value)});
        return copy;
      }
      case ArgumentKind::kLocalPointer: {
        arg.localSpecId = SpecIds::kFirstLocalArgument + localIndex++;
        uint32_t element = module_.def(param.inst->typeId())->idOperand(1);
        uint32_t array = module_.takeId();
        module_.append(ir::Section::kGlobal,
                       Instruction(spv::Op::OpTypeArray, 0, array,
                                   {Operand::id(element), Operand::id(specConstant(module_, arg.localSpecId))}));
        uint32_t variable = module_.takeId();
        module_.append(ir::Section::kGlobal,
                       Instruction(spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::Workgroup, array),
                                   variable, {storageClass(spv::StorageClass::Workgroup)}));
        return builder.valueOfIds(spv::Op::OpInBoundsAccessChain, param.inst->typeId(),
                                  {variable, ir::constantUint(module_, 32, 0)});
      }
    }
    return Error("unreachable");
  }

  // The invocation's block of the private scratch buffer at `buffer` (a pointer of `pointerType`,
  // to one block): its index in the dispatch counts blocks, in 64 bits.
  uint32_t invocationBlock(Builder& builder, uint32_t buffer, uint32_t pointerType) {
    uint32_t uint32 = ir::typeInt(module_, 32);
    uint32_t uvec3 = ir::typeVector(module_, uint32, 3);
    uint32_t group = builder.load(uvec3, vulkanBuiltinVariable(module_, spv::BuiltIn::WorkgroupId, true));
    uint32_t groups = builder.load(uvec3, vulkanBuiltinVariable(module_, spv::BuiltIn::NumWorkgroups, true));
    uint32_t size = workgroupSizeConstant(module_);
    // One instruction per statement: the order of a call's arguments is the compiler's.
    uint32_t x = builder.extract(uint32, group, 0), y = builder.extract(uint32, group, 1);
    uint32_t z = builder.extract(uint32, group, 2);
    uint32_t countX = builder.extract(uint32, groups, 0), countY = builder.extract(uint32, groups, 1);
    uint32_t plane = builder.iadd(builder.imul(z, countY), y);
    uint32_t groupIndex = builder.iadd(builder.imul(plane, countX), x);
    uint32_t sizeX = builder.extract(uint32, size, 0), sizeY = builder.extract(uint32, size, 1);
    uint32_t sizeZ = builder.extract(uint32, size, 2);
    uint32_t groupSize = builder.imul(builder.imul(sizeX, sizeY), sizeZ);
    uint32_t local = builder.load(uint32, vulkanBuiltinVariable(module_, spv::BuiltIn::LocalInvocationIndex, false));
    uint32_t index = builder.iadd(builder.imul(groupIndex, groupSize), local);
    uint32_t index64 = builder.op(spv::Op::OpUConvert, ir::typeInt(module_, 64), {index});
    return builder.valueOfIds(spv::Op::OpPtrAccessChain, pointerType, {buffer, index64});
  }

  // The image record `record` with its layout's channel order, channel type and narrow-offsets flag
  // (members 1 to 3 of member 3) the specialization constants `specId` to `specId + 2` where they
  // are set (not 0): the driver then compiles the library's texel code for that format alone, and
  // with 32-bit texel offsets where they suffice.
  uint32_t specializeLayout(Builder& builder, uint32_t record, uint32_t specId) {
    uint32_t uint32 = ir::typeInt(module_, 32);
    uint32_t uint4 = ir::typeVector(module_, uint32, 4);
    uint32_t layout = builder.extract(uint4, record, 3);
    uint32_t zero = ir::constantUint(module_, 32, 0);
    for (uint32_t member = 1; member <= SpecIds::kImageSpecIds; ++member) {
      uint32_t constant = specConstant(module_, specId + member - 1, 0);
      uint32_t recorded = builder.extract(uint32, layout, member);
      uint32_t value = builder.select(builder.compare(spv::Op::OpIEqual, constant, zero), recorded, constant);
      layout = builder.value(spv::Op::OpCompositeInsert, uint4,
                             {Operand::id(value), Operand::id(layout), Operand::literal(member)});
    }
    return builder.value(spv::Op::OpCompositeInsert, builder.typeOf(record),
                         {Operand::id(layout), Operand::id(record), Operand::literal(3)});
  }

  // The instruction after which the entry block's new code goes: its last OpVariable, or its label.
  Module& module_;
  PassContext& context_;
  const std::unordered_map<uint32_t, spv::BuiltIn>& builtins_;
};

}  // namespace

Expected<PassResult> lowerKernelInterface(Module& module, PassContext& context) {
  std::vector<Instruction*> kernels;
  for (Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    if (entry.wordOperand(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel)) kernels.push_back(&entry);
  }
  if (kernels.empty()) return PassResult::kUnchanged;
  auto builtins = openclBuiltinVariables(module);
  workgroupSizeConstant(module);
  for (Instruction* entry : kernels) {
    KernelLowering lowering(module, context, builtins);
    CL2VK_TRY(lowering.run(*entry));
  }
  CL2VK_TRY(removeOpenCLBuiltinVariables(module, builtins));
  return PassResult::kChanged;
}

}  // namespace cl2vk
