// The pointer helpers of lower-pointers (pointer_values.h).
#include "passes/memory/pointer_values.h"

#include "analysis/call_graph.h"
#include "ir/collectives.h"

namespace cl2vk::pointers {
namespace {

bool isAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
         op == spv::Op::OpInBoundsPtrAccessChain;
}

}  // namespace

Operand storageOperand(SC storage) {
  return Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(storage));
}

bool isPointerValue(const Module& module, const Instruction& inst) {
  return inst.typeId() && ir::isPointerType(module, inst.typeId());
}

bool isLogical(SC storage) { return storage == SC::Workgroup || storage == SC::Function || storage == SC::Private; }

bool isPtrAccessChain(spv::Op op) { return op == spv::Op::OpPtrAccessChain || op == spv::Op::OpInBoundsPtrAccessChain; }

bool forwardsPointer(spv::Op op) {
  return isAccessChain(op) || op == spv::Op::OpBitcast || op == spv::Op::OpCopyObject ||
         op == spv::Op::OpPtrCastToGeneric || op == spv::Op::OpGenericCastToPtr ||
         op == spv::Op::OpGenericCastToPtrExplicit;
}

bool isNullPointer(const Module& module, uint32_t id) {
  const Instruction* def = module.def(id);
  while (def &&
         (def->opcode() == spv::Op::OpPtrCastToGeneric || def->opcode() == spv::Op::OpGenericCastToPtr ||
          def->opcode() == spv::Op::OpBitcast || def->opcode() == spv::Op::OpCopyObject) &&
         isPointerValue(module, *def))
    def = module.def(def->idOperand(0));
  return def && def->opcode() == spv::Op::OpConstantNull;
}

Error unsupportedPointerUse(const Module& module, const Instruction& user) {
  if (user.opcode() == spv::Op::OpFunctionCall) {
    const Function* function = module.function(user.idOperand(0));
    if (function && function->isDeclaration()) {
      std::string name = ir::linkageName(module, user.idOperand(0));
      if (name.empty()) name = module.functionName(*function);
      return ir::refuse(module, user,
                        "passes a __local or __private pointer to '" + name +
                            "', which is not defined in the module (a plain C99 `inline` function the front "
                            "end did not inline has no definition: make it `static inline`)");
    }
  }
  return ir::refuse(module, user, "uses a __local or __private pointer in a way Vulkan cannot express");
}

}  // namespace cl2vk::pointers
