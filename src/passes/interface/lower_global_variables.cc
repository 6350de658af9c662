#include "passes/interface/lower_global_variables.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/interface/hidden_parameters.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

bool isGlobalVariable(const Instruction& inst) {
  return inst.opcode() == spv::Op::OpVariable &&
         inst.wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::CrossWorkgroup);
}

// Writes the initial bytes of the variables: constants as OpenCL C lays them out, and pointers to
// other variables as relocations.
class Initializer {
 public:
  Initializer(const Module& module, const std::map<uint32_t, uint32_t>& offsets, GlobalVariablesLayout& layout)
      : module_(module), offsets_(offsets), layout_(layout) {}

  Status write(uint32_t constant, uint32_t offset) {
    const Instruction* def = module_.def(constant);
    if (!def) return Error("%" + std::to_string(constant) + " is not defined");
    const Instruction* type = module_.def(def->typeId());
    switch (def->opcode()) {
      case spv::Op::OpConstantNull:
      case spv::Op::OpUndef: return okStatus();  // the buffer starts zeroed
      case spv::Op::OpConstant: {
        Expected<TypeLayout> size = layoutOf(module_, def->typeId());
        if (!size) return size.error();
        // A 64-bit literal is one operand of two words, low word first.
        const std::vector<uint32_t>& words = def->operand(0).words;
        uint64_t bits = words[0];
        if (words.size() > 1) bits |= uint64_t{words[1]} << 32;
        setBytes(offset, bits, size->size);
        return okStatus();
      }
      case spv::Op::OpConstantComposite: return writeComposite(*def, *type, offset);
      case spv::Op::OpVariable: return writePointer(constant, 0, offset);
      case spv::Op::OpSpecConstantOp: return writeAddress(*def, offset);
      default: return Error(module_.describe(*def) + ": this initializer of a program-scope variable is not supported");
    }
  }

 private:
  Status writeComposite(const Instruction& def, const Instruction& type, uint32_t offset) {
    std::vector<uint32_t> memberOffsets;
    if (type.opcode() == spv::Op::OpTypeStruct) {
      Expected<std::vector<uint32_t>> members = cl2vk::memberOffsets(module_, type.resultId());
      if (!members) return members.error();
      memberOffsets = *members;
    } else {
      // Arrays step by their element's size; vector components by their own size.
      uint32_t element = type.idOperand(0);
      Expected<TypeLayout> layout = layoutOf(module_, element);
      if (!layout) return layout.error();
      for (size_t i = 0; i < def.numOperands(); ++i) memberOffsets.push_back(static_cast<uint32_t>(i * layout->size));
    }
    for (size_t i = 0; i < def.numOperands(); ++i) CL2VK_TRY(write(def.idOperand(i), offset + memberOffsets[i]));
    return okStatus();
  }

  // The `count` low bytes of `bits`, little-endian as the devices are, at `offset`: appended to the
  // last run when they follow it, else a run of their own.
  void setBytes(uint32_t offset, uint64_t bits, uint32_t count) {
    std::vector<GlobalVariablesLayout::InitialBytes>& runs = layout_.initialBytes;
    if (runs.empty() || runs.back().offset + runs.back().bytes.size() != offset) runs.push_back({offset, {}});
    for (uint32_t i = 0; i < count; ++i) runs.back().bytes.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }

  Status writePointer(uint32_t variable, uint64_t addend, uint32_t offset) {
    auto it = offsets_.find(variable);
    if (it == offsets_.end())
      return Error(module_.describe(*module_.def(variable)) +
                   ": a program-scope pointer may only be initialized with the address of a __global variable");
    layout_.pointers.push_back({offset, it->second + addend});
    return okStatus();
  }

  // &variable[i]... as a constant expression: its variable and the byte offset of the indices.
  Status writeAddress(const Instruction& def, uint32_t offset) {
    auto opcode = static_cast<spv::Op>(def.wordOperand(0));
    uint32_t base = def.idOperand(1);
    if (opcode == spv::Op::OpBitcast || opcode == spv::Op::OpPtrCastToGeneric) return writePointerAt(base, 0, offset);
    if (opcode != spv::Op::OpInBoundsPtrAccessChain && opcode != spv::Op::OpPtrAccessChain)
      return Error(module_.describe(def) + ": this initializer of a program-scope variable is not supported");
    uint32_t baseType = ir::typeOf(module_, base);
    if (!ir::isPointerType(module_, baseType))
      return Error(module_.describe(def) + ": an address computed from something that is not a pointer");
    uint32_t type = ir::pointeeOf(module_, baseType);
    uint64_t addend = 0;
    for (size_t i = 2; i < def.numOperands(); ++i) {
      std::optional<uint64_t> index = constantValue(module_, def.idOperand(i));
      if (!index) return Error(module_.describe(def) + ": the address of a variable with a non-constant index");
      if (i > 2) {
        const Instruction* aggregate = module_.def(type);
        if (aggregate->opcode() == spv::Op::OpTypeStruct) {
          Expected<std::vector<uint32_t>> members = cl2vk::memberOffsets(module_, type);
          if (!members) return members.error();
          if (*index >= members->size()) return Error(module_.describe(def) + ": a member index out of range");
          addend += (*members)[*index];
          type = aggregate->idOperand(*index);
          continue;
        }
        type = aggregate->idOperand(0);
      }
      Expected<TypeLayout> layout = layoutOf(module_, type);
      if (!layout) return layout.error();
      addend += *index * layout->size;
    }
    return writePointerAt(base, addend, offset);
  }

  Status writePointerAt(uint32_t base, uint64_t addend, uint32_t offset) {
    const Instruction* def = module_.def(base);
    if (def && def->opcode() == spv::Op::OpSpecConstantOp) {
      // A cast of an access chain: the inner expression gives the address, the cast keeps it.
      size_t before = layout_.pointers.size();
      CL2VK_TRY(writeAddress(*def, offset));
      if (layout_.pointers.size() > before) layout_.pointers.back().addend += addend;
      return okStatus();
    }
    return writePointer(base, addend, offset);
  }

  const Module& module_;
  const std::map<uint32_t, uint32_t>& offsets_;
  GlobalVariablesLayout& layout_;
};

// Replaces the variables `kernel` uses by the buffer's address plus their offsets.
void rewriteKernel(Module& module, Function& kernel, const std::map<uint32_t, uint32_t>& offsets) {
  std::set<uint32_t> used;
  for (ir::Block& block : kernel.blocks()) {
    for (Instruction& inst : block.instructions()) {
      for (size_t i = 0; i < inst.numOperands(); ++i) {
        if (inst.operand(i).isId() && offsets.count(inst.idOperand(i))) used.insert(inst.idOperand(i));
      }
    }
  }
  if (used.empty()) return;
  uint32_t ulong = ir::typeInt(module, 64);
  uint32_t bufferType = ir::typePointer(module, spv::StorageClass::CrossWorkgroup, ir::typeInt(module, 32));
  uint32_t buffer = addHiddenParameter(module, kernel, bufferType, kGlobalVariablesName);
  Instruction* position = &kernel.blocks().front().instructions().front();
  for (Instruction& inst : kernel.blocks().front().instructions()) {
    if (inst.opcode() == spv::Op::OpVariable) position = &inst;
  }
  Builder b = Builder::after(module, position);
  uint32_t base = b.op(spv::Op::OpConvertPtrToU, ulong, {buffer});
  std::map<uint32_t, uint32_t> replacement;
  for (uint32_t variable : used) {
    uint32_t address = b.iadd(base, ir::constantUint(module, 64, offsets.at(variable)));
    replacement[variable] = b.op(spv::Op::OpConvertUToPtr, module.def(variable)->typeId(), {address});
  }
  for (ir::Block& block : kernel.blocks()) {
    for (Instruction& inst : block.instructions()) {
      std::vector<Operand> operands = inst.operands();
      bool changed = false;
      for (Operand& operand : operands) {
        if (!operand.isId() || !replacement.count(operand.words[0])) continue;
        operand.words[0] = replacement.at(operand.words[0]);
        changed = true;
      }
      if (changed)
        module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
    }
  }
}

}  // namespace

Expected<PassResult> lowerGlobalVariables(Module& module, PassContext& context) {
  std::vector<Instruction*> variables;
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (isGlobalVariable(inst)) variables.push_back(&inst);
  }
  if (variables.empty()) return PassResult::kUnchanged;

  GlobalVariablesLayout& layout = context.reflection.globalVariables;
  std::map<uint32_t, uint32_t> offsets;
  uint32_t size = 0;
  for (Instruction* variable : variables) {
    uint32_t pointee = module.def(variable->typeId())->idOperand(1);
    Expected<TypeLayout> type = layoutOf(module, pointee);
    if (!type) return type.error().withContext(module.describe(*variable));
    uint32_t alignment = type->alignment;
    if (const Instruction* aligned = module.findDecoration(variable->resultId(), spv::Decoration::Alignment))
      alignment = std::max(alignment, aligned->wordOperand(2));
    size = alignUp(size, alignment);
    offsets[variable->resultId()] = size;
    std::string name = module.name(variable->resultId());
    layout.variables.push_back({name.empty() ? "%" + std::to_string(variable->resultId()) : name, size, type->size});
    size += type->size;
  }
  layout.size = alignUp(size, 8);
  Initializer initializer(module, offsets, layout);
  for (Instruction* variable : variables) {
    if (variable->numOperands() < 2) continue;
    Status written = initializer.write(variable->idOperand(1), offsets.at(variable->resultId()));
    if (!written) return written.error().withContext(module.describe(*variable));
  }

  for (Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    if (entry.wordOperand(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel))
      rewriteKernel(module, *module.function(entry.idOperand(1)), offsets);
  }
  // The constant expressions of the initializers go with them. Whatever else still uses a variable
  // (a function that is not a kernel, which inline-functions inlines or removes first) makes the
  // removal fail with the user named.
  std::set<uint32_t> removed;
  for (Instruction* variable : variables) removed.insert(variable->resultId());
  std::vector<Instruction*> doomed = variables;
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpSpecConstantOp) continue;
    for (size_t i = 1; i < inst.numOperands(); ++i) {
      if (inst.operand(i).isId() && removed.count(inst.idOperand(i))) {
        removed.insert(inst.resultId());
        doomed.push_back(&inst);
        break;
      }
    }
  }
  for (Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    std::vector<Operand> operands;
    for (size_t i = 0; i < entry.numOperands(); ++i) {
      if (i < 3 || !removed.count(entry.idOperand(i))) operands.push_back(entry.operand(i));
    }
    if (operands.size() != entry.numOperands())
      module.update(&entry, Instruction(spv::Op::OpEntryPoint, 0, 0, operands));
  }
  CL2VK_TRY(module.removeAll(doomed));
  return PassResult::kChanged;
}

}  // namespace cl2vk
