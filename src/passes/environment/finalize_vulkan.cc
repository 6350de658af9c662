#include "passes/environment/finalize_vulkan.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "ir/builder.h"
#include "ir/collectives.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/environment/vulkan_memory_model.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;
using ir::Section;
using ir::Use;

// Decorations with a meaning in Vulkan compute modules; every other one (Kernel-only ones such as
// Alignment, FuncParamAttr, LinkageAttributes, CPacked, or hints Vulkan drivers may reject) goes.
bool keepsDecoration(spv::Decoration decoration) {
  switch (decoration) {
    case spv::Decoration::BuiltIn:
    case spv::Decoration::SpecId:
    case spv::Decoration::Block:
    case spv::Decoration::Offset:
    case spv::Decoration::ArrayStride:
    case spv::Decoration::NonWritable:
    case spv::Decoration::NonReadable:
    case spv::Decoration::Restrict:
    case spv::Decoration::Aliased:
    case spv::Decoration::RestrictPointer:
    case spv::Decoration::AliasedPointer:
    case spv::Decoration::NoContraction:
    case spv::Decoration::Volatile:
    case spv::Decoration::Coherent: return true;
    default: return false;
  }
}

bool isFloatArithmetic(spv::Op op) {
  return op == spv::Op::OpFAdd || op == spv::Op::OpFSub || op == spv::Op::OpFMul || op == spv::Op::OpFDiv ||
         op == spv::Op::OpFRem || op == spv::Op::OpFMod || op == spv::Op::OpFNegate;
}

// The capability an OpGroupNonUniform* instruction needs besides GroupNonUniform.
std::optional<spv::Capability> subgroupCapabilityOf(spv::Op op) {
  using O = spv::Op;
  switch (op) {
    case O::OpGroupNonUniformElect: return spv::Capability::GroupNonUniform;
    case O::OpGroupNonUniformAll:
    case O::OpGroupNonUniformAny:
    case O::OpGroupNonUniformAllEqual: return spv::Capability::GroupNonUniformVote;
    case O::OpGroupNonUniformBroadcast:
    case O::OpGroupNonUniformBroadcastFirst:
    case O::OpGroupNonUniformBallot:
    case O::OpGroupNonUniformInverseBallot:
    case O::OpGroupNonUniformBallotBitExtract:
    case O::OpGroupNonUniformBallotBitCount:
    case O::OpGroupNonUniformBallotFindLSB:
    case O::OpGroupNonUniformBallotFindMSB: return spv::Capability::GroupNonUniformBallot;
    case O::OpGroupNonUniformShuffle:
    case O::OpGroupNonUniformShuffleXor: return spv::Capability::GroupNonUniformShuffle;
    case O::OpGroupNonUniformShuffleUp:
    case O::OpGroupNonUniformShuffleDown: return spv::Capability::GroupNonUniformShuffleRelative;
    case O::OpGroupNonUniformIAdd:
    case O::OpGroupNonUniformFAdd:
    case O::OpGroupNonUniformIMul:
    case O::OpGroupNonUniformFMul:
    case O::OpGroupNonUniformSMin:
    case O::OpGroupNonUniformUMin:
    case O::OpGroupNonUniformFMin:
    case O::OpGroupNonUniformSMax:
    case O::OpGroupNonUniformUMax:
    case O::OpGroupNonUniformFMax:
    case O::OpGroupNonUniformBitwiseAnd:
    case O::OpGroupNonUniformBitwiseOr:
    case O::OpGroupNonUniformBitwiseXor:
    case O::OpGroupNonUniformLogicalAnd:
    case O::OpGroupNonUniformLogicalOr:
    case O::OpGroupNonUniformLogicalXor: return spv::Capability::GroupNonUniformArithmetic;
    default: return std::nullopt;
  }
}

// A reduction over clusters of lanes (cl_khr_subgroup_clustered_reduce) needs GroupNonUniformClustered too.
bool isClusteredReduce(const Instruction& inst) {
  return subgroupCapabilityOf(inst.opcode()) == spv::Capability::GroupNonUniformArithmetic &&
         inst.wordOperand(1) == static_cast<uint32_t>(spv::GroupOperation::ClusteredReduce);
}

Operand decorationOperand(spv::Decoration decoration) {
  return Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(decoration));
}

class Finalizer {
 public:
  Finalizer(Module& module, PassContext& context) : module_(module), context_(context) {}

  Status run() {
    CL2VK_TRY(rejectWhatIsStillOpenCL(module_));
    CL2VK_TRY(materializeNullBufferPointers());
    flattenDecorationGroups();
    bool contractionOff = rewriteExecutionModes();
    if (contractionOff) forbidContraction();
    if (context_.target.denormPreserveFloat32) preserveFloatDenormals();
    removeDecorationsVulkanRejects();
    // Vulkan's memory model is core from SPIR-V 1.5 (Vulkan 1.2).
    bool vulkanModel = context_.target.vulkanMemoryModel && spirvVersionFor(context_.target.vulkanEnv) >= 0x00010500 &&
                       ordersMemoryAcrossWorkGroups(module_);
    if (vulkanModel) useVulkanMemoryModel(module_);
    CL2VK_TRY(removeUnusedGlobals());
    decoratePointerVariables();
    computeCapabilities(vulkanModel);
    setMemoryModel(vulkanModel);
    module_.setVersion(spirvVersionFor(context_.target.vulkanEnv));
    setInterfaces();
    module_.sortGlobals();
    return okStatus();
  }

 private:
  template <typename Visit>
  void forEachInstruction(Visit visit) {
    for (Function& function : module_.functions()) {
      for (Block& block : function.blocks()) {
        for (Instruction& inst : block.instructions()) visit(inst);
      }
    }
  }

  // Vulkan has no null PhysicalStorageBuffer pointer (OpConstantNull cannot have that type): a
  // NULL __global pointer is address 0. Its conversion to an integer, which is how pointers are
  // compared, becomes the constant 0; any other use gets an OpConvertUToPtr of 0 right before it
  // (before the predecessor's branch, for a phi).
  Status materializeNullBufferPointers() {
    std::vector<Instruction*> nulls;
    for (Instruction& inst : module_.section(Section::kGlobal)) {
      if (inst.opcode() != spv::Op::OpConstantNull) continue;
      if (ir::isBufferPointer(module_, inst.typeId())) nulls.push_back(&inst);
    }
    for (Instruction* null : nulls) {
      // Without shaderInt64 (lower-int64 ran) there is no 64-bit 0: address 0 is a null uvec2.
      uint32_t zero = context_.target.int64
                          ? ir::constantUint(module_, 64, 0)
                          : ir::constantNull(module_, ir::typeVector(module_, ir::typeInt(module_, 32), 2));
      std::vector<Use> uses = module_.uses(null->resultId());
      std::vector<Instruction*> folded;
      for (const Use& use : uses) {
        Instruction* user = use.user;
        if (user->opcode() == spv::Op::OpName || user->opcode() == spv::Op::OpDecorate) continue;
        if (user->opcode() == spv::Op::OpConvertPtrToU && ir::scalarWidth(module_, user->typeId()) == 64) {
          module_.replaceAllUses(user->resultId(), zero);
          folded.push_back(user);
          continue;
        }
        if (!user->block()) return Error("a null __global pointer in a constant is not supported in Vulkan");
        Instruction* position = user;
        if (user->opcode() == spv::Op::OpPhi) {
          position = module_.def(user->idOperand(static_cast<size_t>(use.operandIndex) + 1))->block()->terminator();
        }
        Builder b = Builder::before(module_, position);
        uint32_t pointer = b.value(context_.target.int64 ? spv::Op::OpConvertUToPtr : spv::Op::OpBitcast,
                                   null->typeId(), {Operand::id(zero)});
        module_.setOperand(user, static_cast<size_t>(use.operandIndex), Operand::id(pointer));
      }
      for (Instruction* inst : folded) CL2VK_TRY(module_.remove(inst));
      CL2VK_TRY(module_.remove(null));
    }
    return okStatus();
  }

  // Vulkan drivers handle decoration groups poorly; each target gets the decorations directly.
  void flattenDecorationGroups() {
    std::vector<Instruction*> groupDecorates;
    for (Instruction& inst : module_.section(Section::kAnnotation)) {
      if (inst.opcode() == spv::Op::OpGroupDecorate || inst.opcode() == spv::Op::OpGroupMemberDecorate)
        groupDecorates.push_back(&inst);
    }
    std::vector<Instruction> added;
    std::unordered_set<uint32_t> groups;
    for (Instruction* apply : groupDecorates) {
      uint32_t group = apply->idOperand(0);
      groups.insert(group);
      for (const ir::Use& use : module_.uses(group)) {
        if (use.user->opcode() != spv::Op::OpDecorate || use.operandIndex != 0) continue;
        if (apply->opcode() == spv::Op::OpGroupDecorate) {
          for (size_t i = 1; i < apply->numOperands(); ++i) {
            std::vector<Operand> operands = use.user->operands();
            operands[0] = Operand::id(apply->idOperand(i));
            added.emplace_back(spv::Op::OpDecorate, 0, 0, std::move(operands));
          }
        } else {
          for (size_t i = 1; i + 1 < apply->numOperands(); i += 2) {
            std::vector<Operand> operands = {Operand::id(apply->idOperand(i)), apply->operand(i + 1)};
            for (size_t j = 1; j < use.user->numOperands(); ++j) operands.push_back(use.user->operand(j));
            added.emplace_back(spv::Op::OpMemberDecorate, 0, 0, std::move(operands));
          }
        }
      }
    }
    for (Instruction* apply : groupDecorates) (void)module_.remove(apply);
    for (uint32_t group : groups) (void)module_.remove(module_.def(group));  // takes its OpDecorates along
    for (Instruction& inst : added) module_.append(Section::kAnnotation, std::move(inst));
  }

  // Keeps LocalSize (reqd_work_group_size); returns whether any kernel asked for ContractionOff.
  bool rewriteExecutionModes() {
    bool contractionOff = false;
    std::vector<Instruction*> dropped;
    for (Instruction& mode : module_.section(Section::kExecutionMode)) {
      auto kind = static_cast<spv::ExecutionMode>(mode.wordOperand(1));
      if (kind == spv::ExecutionMode::LocalSize) continue;
      contractionOff |= kind == spv::ExecutionMode::ContractionOff;
      dropped.push_back(&mode);
    }
    for (Instruction* mode : dropped) (void)module_.remove(mode);
    return contractionOff;
  }

  // Every kernel of a module that computes in 32-bit floats keeps their denormals, which devices
  // such as NVIDIA's flush unless told (OpenCL's CL_FP_DENORM; Target::denormPreserveFloat32).
  void preserveFloatDenormals() {
    bool usesFloat = std::any_of(
        module_.section(Section::kGlobal).begin(), module_.section(Section::kGlobal).end(),
        [](const Instruction& inst) { return inst.opcode() == spv::Op::OpTypeFloat && inst.wordOperand(0) == 32; });
    if (!usesFloat) return;
    std::vector<uint32_t> kernels;
    for (const Instruction& entry : module_.section(Section::kEntryPoint)) kernels.push_back(entry.idOperand(1));
    for (uint32_t kernel : kernels) {
      module_.append(Section::kExecutionMode,
                     Instruction(spv::Op::OpExecutionMode, 0, 0,
                                 {Operand::id(kernel),
                                  Operand::enumerant(SPV_OPERAND_TYPE_EXECUTION_MODE,
                                                     static_cast<uint32_t>(spv::ExecutionMode::DenormPreserve)),
                                  Operand::literal(32)}));
    }
  }

  // OpenCL's ContractionOff: no a*b+c fused into an fma, which Vulkan drivers may do unless told.
  void forbidContraction() {
    std::vector<uint32_t> targets;
    forEachInstruction([&](Instruction& inst) {
      if (isFloatArithmetic(inst.opcode())) targets.push_back(inst.resultId());
    });
    for (uint32_t id : targets) {
      if (module_.findDecoration(id, spv::Decoration::NoContraction)) continue;
      module_.append(
          Section::kAnnotation,
          Instruction(spv::Op::OpDecorate, 0, 0, {Operand::id(id), decorationOperand(spv::Decoration::NoContraction)}));
    }
  }

  // NoSignedWrap and NoUnsignedWrap (SPIR-V 1.4) tell the driver's compiler what OpenCL C's
  // undefined signed overflow told LLVM: without them NVIDIA's cannot count a `while (i < n)
  // i += stride;` loop's trips, and a strided loop of loads runs unrolled by nothing (CLBlast's
  // dot product). Kept where the decorated value is still an instruction they may decorate.
  bool keepsWrapDecoration(const Instruction& decoration) const {
    auto kind = static_cast<spv::Decoration>(decoration.wordOperand(1));
    if (kind != spv::Decoration::NoSignedWrap && kind != spv::Decoration::NoUnsignedWrap) return false;
    if (spirvVersionFor(context_.target.vulkanEnv) < 0x00010400) return false;
    const Instruction* target = module_.def(decoration.idOperand(0));
    if (!target) return false;
    switch (target->opcode()) {
      case spv::Op::OpIAdd:
      case spv::Op::OpISub:
      case spv::Op::OpIMul:
      case spv::Op::OpShiftLeftLogical:
      case spv::Op::OpSNegate: return true;
      default: return false;
    }
  }

  void removeDecorationsVulkanRejects() {
    std::vector<Instruction*> dropped;
    for (Instruction& inst : module_.section(Section::kAnnotation)) {
      switch (inst.opcode()) {
        case spv::Op::OpDecorate:
        case spv::Op::OpDecorateId:
        case spv::Op::OpDecorateString:
          if (!keepsDecoration(static_cast<spv::Decoration>(inst.wordOperand(1))) && !keepsWrapDecoration(inst))
            dropped.push_back(&inst);
          break;
        case spv::Op::OpMemberDecorate:
        case spv::Op::OpMemberDecorateString:
          if (!keepsDecoration(static_cast<spv::Decoration>(inst.wordOperand(2)))) dropped.push_back(&inst);
          break;
        default: break;
      }
    }
    for (Instruction* inst : dropped) (void)module_.remove(inst);
  }

  // Types, constants and variables nothing uses any more (the Kernel-only pointer types among
  // them) go, repeatedly. The WorkgroupSize constant is used by its decoration alone and stays.
  Status removeUnusedGlobals() {
    bool removed = true;
    while (removed) {
      removed = false;
      std::vector<Instruction*> unused;
      for (Instruction& inst : module_.section(Section::kGlobal)) {
        if (!inst.resultId() || module_.isUsed(inst.resultId())) continue;
        if (module_.findDecoration(inst.resultId(), spv::Decoration::BuiltIn) && inst.opcode() != spv::Op::OpVariable)
          continue;
        bool interfaceOnly = false;
        for (const ir::Use& use : module_.uses(inst.resultId()))
          interfaceOnly |= use.user->opcode() == spv::Op::OpEntryPoint;
        if (interfaceOnly) continue;
        unused.push_back(&inst);
      }
      for (Instruction* inst : unused) {
        CL2VK_TRY(module_.remove(inst));
        removed = true;
      }
    }
    return okStatus();
  }

  bool containsPhysicalPointer(uint32_t type, int depth = 0) const {
    const Instruction* def = module_.def(type);
    if (!def || depth > 16) return false;
    switch (def->opcode()) {
      case spv::Op::OpTypePointer:
        return def->wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::PhysicalStorageBuffer);
      case spv::Op::OpTypeArray:
      case spv::Op::OpTypeRuntimeArray: return containsPhysicalPointer(def->idOperand(0), depth + 1);
      case spv::Op::OpTypeStruct:
        for (size_t i = 0; i < def->numOperands(); ++i) {
          if (containsPhysicalPointer(def->idOperand(i), depth + 1)) return true;
        }
        return false;
      default: return false;
    }
  }

  // Vulkan wants every variable holding a device address to say whether it may alias.
  void decoratePointerVariables() {
    std::vector<uint32_t> variables;
    auto consider = [&](const Instruction& inst) {
      if (inst.opcode() != spv::Op::OpVariable) return;
      uint32_t pointee = module_.def(inst.typeId())->idOperand(1);
      if (containsPhysicalPointer(pointee) &&
          !module_.findDecoration(inst.resultId(), spv::Decoration::AliasedPointer) &&
          !module_.findDecoration(inst.resultId(), spv::Decoration::RestrictPointer))
        variables.push_back(inst.resultId());
    };
    for (const Instruction& inst : module_.section(Section::kGlobal)) consider(inst);
    forEachInstruction([&](Instruction& inst) { consider(inst); });
    for (uint32_t id : variables)
      module_.append(Section::kAnnotation,
                     Instruction(spv::Op::OpDecorate, 0, 0,
                                 {Operand::id(id), decorationOperand(spv::Decoration::AliasedPointer)}));
  }

  // Which widths a type holds, looking through composites (for the storage capabilities).
  void collectWidths(uint32_t type, std::set<std::pair<spv::Op, uint32_t>>& widths, int depth = 0) const {
    const Instruction* def = module_.def(type);
    if (!def || depth > 16) return;
    switch (def->opcode()) {
      case spv::Op::OpTypeInt:
      case spv::Op::OpTypeFloat: widths.emplace(def->opcode(), def->wordOperand(0)); break;
      case spv::Op::OpTypeVector:
      case spv::Op::OpTypeArray:
      case spv::Op::OpTypeRuntimeArray: collectWidths(def->idOperand(0), widths, depth + 1); break;
      case spv::Op::OpTypeStruct:
        for (size_t i = 0; i < def->numOperands(); ++i) collectWidths(def->idOperand(i), widths, depth + 1);
        break;
      default: break;
    }
  }

  void computeCapabilities(bool vulkanModel) {
    std::set<spv::Capability> capabilities = {spv::Capability::Shader};
    if (vulkanModel) {
      capabilities.insert(spv::Capability::VulkanMemoryModel);
      capabilities.insert(spv::Capability::VulkanMemoryModelDeviceScope);
    }
    std::set<std::string> extensions;
    ModuleRequirements& req = context_.reflection.requirements;
    bool physical = false;
    for (const Instruction& inst : module_.section(Section::kGlobal)) {
      switch (inst.opcode()) {
        case spv::Op::OpTypeInt: {
          uint32_t width = inst.wordOperand(0);
          if (width == 8) capabilities.insert(spv::Capability::Int8), req.int8 = true;
          if (width == 16) capabilities.insert(spv::Capability::Int16), req.int16 = true;
          if (width == 64) capabilities.insert(spv::Capability::Int64), req.int64 = true;
          break;
        }
        case spv::Op::OpTypeFloat: {
          uint32_t width = inst.wordOperand(0);
          if (width == 16) capabilities.insert(spv::Capability::Float16), req.float16 = true;
          if (width == 64) capabilities.insert(spv::Capability::Float64), req.float64 = true;
          break;
        }
        case spv::Op::OpTypePointer: {
          if (inst.wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::PhysicalStorageBuffer)) break;
          physical = true;
          std::set<std::pair<spv::Op, uint32_t>> widths;
          collectWidths(inst.idOperand(1), widths);
          for (auto [kind, width] : widths) {
            if (width == 8)
              capabilities.insert(spv::Capability::StorageBuffer8BitAccess), req.storageBuffer8BitAccess = true;
            if (width == 16)
              capabilities.insert(spv::Capability::StorageBuffer16BitAccess), req.storageBuffer16BitAccess = true;
          }
          break;
        }
        default: break;
      }
    }
    if (physical) capabilities.insert(spv::Capability::PhysicalStorageBufferAddresses);
    forEachInstruction([&](Instruction& inst) {
      if (std::optional<spv::Capability> needed = subgroupCapabilityOf(inst.opcode())) {
        capabilities.insert(spv::Capability::GroupNonUniform);
        capabilities.insert(*needed);
        if (isClusteredReduce(inst)) capabilities.insert(spv::Capability::GroupNonUniformClustered);
        req.subgroupBasic = true;
        req.subgroupVote |= *needed == spv::Capability::GroupNonUniformVote;
        req.subgroupArithmetic |= *needed == spv::Capability::GroupNonUniformArithmetic;
        req.subgroupBallot |= *needed == spv::Capability::GroupNonUniformBallot;
        req.subgroupShuffle |= *needed == spv::Capability::GroupNonUniformShuffle;
        req.subgroupShuffleRelative |= *needed == spv::Capability::GroupNonUniformShuffleRelative;
      }
      // The type an atomic works on: its result's, or for a store (which has none) its value's.
      uint32_t atomicType = inst.typeId();
      if (inst.opcode() == spv::Op::OpAtomicStore) atomicType = ir::typeOf(module_, inst.idOperand(3));
      if (ir::isAtomic(inst.opcode()) && ir::intWidth(module_, atomicType) == 64) {
        capabilities.insert(spv::Capability::Int64Atomics);
        req.int64Atomics = true;
      }
    });
    for (const Instruction& decoration : module_.section(Section::kAnnotation)) {
      if (decoration.opcode() != spv::Op::OpDecorate ||
          decoration.wordOperand(1) != static_cast<uint32_t>(spv::Decoration::BuiltIn))
        continue;
      switch (static_cast<spv::BuiltIn>(decoration.wordOperand(2))) {
        case spv::BuiltIn::SubgroupSize:
        case spv::BuiltIn::SubgroupLocalInvocationId:
        case spv::BuiltIn::SubgroupId:
        case spv::BuiltIn::NumSubgroups:
          capabilities.insert(spv::Capability::GroupNonUniform);
          req.subgroupBasic = true;
          break;
        case spv::BuiltIn::SubgroupEqMask:
        case spv::BuiltIn::SubgroupGeMask:
        case spv::BuiltIn::SubgroupGtMask:
        case spv::BuiltIn::SubgroupLeMask:
        case spv::BuiltIn::SubgroupLtMask:
          capabilities.insert(spv::Capability::GroupNonUniform);
          capabilities.insert(spv::Capability::GroupNonUniformBallot);
          req.subgroupBasic = req.subgroupBallot = true;
          break;
        default: break;
      }
    }

    uint32_t version = spirvVersionFor(context_.target.vulkanEnv);
    for (const Instruction& mode : module_.section(Section::kExecutionMode)) {
      if (mode.wordOperand(1) != static_cast<uint32_t>(spv::ExecutionMode::DenormPreserve)) continue;
      capabilities.insert(spv::Capability::DenormPreserve);
      if (version < 0x00010400) extensions.insert("SPV_KHR_float_controls");
    }
    if (version < 0x00010500) {
      if (physical) extensions.insert("SPV_KHR_physical_storage_buffer");
      if (req.storageBuffer8BitAccess) extensions.insert("SPV_KHR_8bit_storage");
    }
    if (version < 0x00010300 && req.storageBuffer16BitAccess) extensions.insert("SPV_KHR_16bit_storage");

    std::vector<Instruction*> old;
    for (Instruction& inst : module_.section(Section::kCapability)) old.push_back(&inst);
    for (Instruction& inst : module_.section(Section::kExtension)) old.push_back(&inst);
    for (Instruction* inst : old) (void)module_.remove(inst);
    req.capabilities.clear();
    req.extensions.clear();
    for (spv::Capability capability : capabilities) {
      module_.append(Section::kCapability,
                     Instruction(spv::Op::OpCapability, 0, 0,
                                 {Operand::enumerant(SPV_OPERAND_TYPE_CAPABILITY, static_cast<uint32_t>(capability))}));
      req.capabilities.push_back(ir::capabilityName(capability));
    }
    for (const std::string& extension : extensions) {
      module_.append(Section::kExtension, Instruction(spv::Op::OpExtension, 0, 0, {Operand::string(extension)}));
      req.extensions.push_back(extension);
    }
  }

  void setMemoryModel(bool vulkanModel) {
    bool physical = std::any_of(module_.section(Section::kCapability).begin(),
                                module_.section(Section::kCapability).end(), [](const Instruction& inst) {
                                  return inst.wordOperand(0) ==
                                         static_cast<uint32_t>(spv::Capability::PhysicalStorageBufferAddresses);
                                });
    Instruction& model = module_.section(Section::kMemoryModel).front();
    auto addressing = physical ? spv::AddressingModel::PhysicalStorageBuffer64 : spv::AddressingModel::Logical;
    module_.update(
        &model, Instruction(spv::Op::OpMemoryModel, 0, 0,
                            {Operand::enumerant(SPV_OPERAND_TYPE_ADDRESSING_MODEL, static_cast<uint32_t>(addressing)),
                             Operand::enumerant(SPV_OPERAND_TYPE_MEMORY_MODEL,
                                                static_cast<uint32_t>(vulkanModel ? spv::MemoryModel::Vulkan
                                                                                  : spv::MemoryModel::GLSL450))}));
  }

  // SPIR-V 1.4 and later list every global variable an entry point uses; earlier versions only
  // the Input and Output ones.
  void setInterfaces() {
    bool everyVariable = spirvVersionFor(context_.target.vulkanEnv) >= 0x00010400;
    std::vector<Instruction*> entries;
    for (Instruction& entry : module_.section(Section::kEntryPoint)) entries.push_back(&entry);
    for (Instruction* entry : entries) {
      Function* function = module_.function(entry->idOperand(1));
      std::set<uint32_t> used;
      for (Block& block : function->blocks()) {
        for (Instruction& inst : block.instructions()) {
          for (const Operand& op : inst.operands()) {
            if (!op.isId()) continue;
            const Instruction* def = module_.def(op.words[0]);
            if (!def || def->opcode() != spv::Op::OpVariable || def->list() != &module_.section(Section::kGlobal))
              continue;
            auto storage = static_cast<spv::StorageClass>(def->wordOperand(0));
            if (everyVariable || storage == spv::StorageClass::Input || storage == spv::StorageClass::Output)
              used.insert(op.words[0]);
          }
        }
      }
      std::vector<Operand> operands(entry->operands().begin(), entry->operands().begin() + 3);
      for (uint32_t id : used) operands.push_back(Operand::id(id));
      module_.update(entry, Instruction(spv::Op::OpEntryPoint, 0, 0, std::move(operands)));
    }
  }

  Module& module_;
  PassContext& context_;
};

}  // namespace

uint32_t spirvVersionFor(spv_target_env env) {
  switch (env) {
    case SPV_ENV_VULKAN_1_1: return 0x00010300;
    case SPV_ENV_VULKAN_1_3: return 0x00010600;
    default: return 0x00010500;
  }
}

Expected<PassResult> finalizeVulkanModule(Module& module, PassContext& context) {
  Finalizer finalizer(module, context);
  CL2VK_TRY(finalizer.run());
  return PassResult::kChanged;
}

}  // namespace cl2vk
