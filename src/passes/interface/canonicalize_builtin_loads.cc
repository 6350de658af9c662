#include "passes/interface/canonicalize_builtin_loads.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Instruction;
using ir::Module;
using ir::Operand;

// Where a pointer derived from a builtin variable points: the whole variable, or one component
// of its vector (`index` is an id, a constant or a run-time value).
struct Place {
  bool whole = true;
  uint32_t index = 0;
};

bool isAnnotation(spv::Op op) {
  switch (op) {
    case spv::Op::OpName:
    case spv::Op::OpDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpEntryPoint: return true;
    default: return false;
  }
}

bool isPointerCopy(spv::Op op) {
  switch (op) {
    case spv::Op::OpBitcast:
    case spv::Op::OpCopyObject:
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpGenericCastToPtrExplicit: return true;
    default: return false;
  }
}

class BuiltinVariable {
 public:
  BuiltinVariable(Module& module, Instruction& variable)
      : module_(module),
        variable_(variable),
        type_(module.def(variable.typeId())->idOperand(1)),
        components_(ir::componentCount(module, type_)),
        component_(ir::componentType(module, type_)) {}

  Status run() {
    if (variable_.wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::Input)) moveToInput();
    std::vector<std::pair<uint32_t, Place>> pending = {{variable_.resultId(), Place{}}};
    while (!pending.empty()) {
      auto [pointer, place] = pending.back();
      pending.pop_back();
      std::vector<ir::Use> uses = module_.uses(pointer);
      for (const ir::Use& use : uses) {
        Instruction& user = *use.user;
        if (isAnnotation(user.opcode()) && pointer == variable_.resultId()) continue;
        if (user.opcode() == spv::Op::OpLoad && use.operandIndex == 0) {
          // A load of the variable itself is the canonical form already.
          if (pointer == variable_.resultId()) {
            if (user.typeId() != type_) return unsupported(user, "a load of another type");
            readers_.push_back(user.function());
          } else {
            loads_.emplace_back(&user, place);
          }
          continue;
        }
        Expected<Place> next = derivedPlace(user, use.operandIndex, place);
        if (!next) return next.error();
        pending.emplace_back(user.resultId(), *next);
        derived_.push_back(&user);
      }
    }
    for (auto [load, place] : loads_) {
      readers_.push_back(load->function());
      CL2VK_TRY(rewriteLoad(*load, place));
    }
    listInEntryPoints();
    return module_.removeAll(derived_);
  }

  bool changed() const { return changed_ || !loads_.empty() || !derived_.empty(); }

 private:
  Error unsupported(const Instruction& user, const std::string& why) const {
    std::string name = module_.name(variable_.resultId());
    return ir::refuse(module_, user,
                      why + " of the OpenCL builtin variable '" +
                          (name.empty() ? "%" + std::to_string(variable_.resultId()) : name) +
                          "', which is not supported");
  }

  // Old llvm-spirv declares the builtins UniformConstant; Vulkan's and the lowering's are Input.
  void moveToInput() {
    std::vector<Operand> operands = variable_.operands();
    operands[0] = Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(spv::StorageClass::Input));
    module_.update(&variable_,
                   Instruction(spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::Input, type_),
                               variable_.resultId(), std::move(operands)));
    changed_ = true;
  }

  uint32_t pointeeOf(const Instruction& pointer) const { return module_.def(pointer.typeId())->idOperand(1); }
  uint32_t typeAt(const Place& place) const { return place.whole ? type_ : component_; }

  // The place an access chain or pointer copy of a pointer to `place` reaches.
  Expected<Place> derivedPlace(Instruction& user, int operandIndex, Place place) {
    spv::Op op = user.opcode();
    bool chain = op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain;
    bool ptrChain = op == spv::Op::OpPtrAccessChain || op == spv::Op::OpInBoundsPtrAccessChain;
    if (operandIndex != 0 || !(chain || ptrChain || isPointerCopy(op))) return unsupported(user, "a use");
    if (isPointerCopy(op)) {
      uint32_t pointee = pointeeOf(user);
      if (pointee == typeAt(place)) return place;
      if (place.whole && components_ > 1 && pointee == component_)
        return Place{false, ir::constantUint(module_, 32, 0)};
      if (!place.whole && pointee == type_ && constantValue(module_, place.index) == 0) return Place{};
      return unsupported(user, "a reinterpretation");
    }
    size_t first = 1;
    if (ptrChain) {
      // The first index steps over whole objects: from the variable only by 0, from a component
      // to another component.
      uint32_t element = user.idOperand(1);
      first = 2;
      if (place.whole) {
        if (constantValue(module_, element) != 0) return unsupported(user, "an access past the end");
      } else {
        place.index = addIndices(user, place.index, element);
      }
    }
    for (size_t i = first; i < user.numOperands(); ++i) {
      if (!place.whole || components_ == 1) return unsupported(user, "an index into a scalar");
      place = Place{false, user.idOperand(i)};
    }
    if (!place.whole) {
      std::optional<uint64_t> index = constantValue(module_, place.index);
      if (index && *index >= components_) return unsupported(user, "an access past the components");
    }
    return place;
  }

  // a + b as a 32-bit index (the components are few), folded when both are constants.
  uint32_t addIndices(Instruction& user, uint32_t a, uint32_t b) {
    std::optional<uint64_t> ca = constantValue(module_, a), cb = constantValue(module_, b);
    if (ca && cb) return ir::constantUint(module_, 32, *ca + *cb);
    Builder builder = Builder::before(module_, &user);
    return builder.valueOfIds(spv::Op::OpIAdd, ir::typeInt(module_, 32), {asUint(builder, a), asUint(builder, b)});
  }

  uint32_t asUint(Builder& builder, uint32_t index) {
    uint32_t uint = ir::typeInt(module_, 32);
    if (ir::scalarWidth(module_, ir::typeOf(module_, index)) == 32) return index;
    return builder.valueOfIds(spv::Op::OpUConvert, uint, {index});
  }

  Status rewriteLoad(Instruction& load, const Place& place) {
    if (load.typeId() != typeAt(place)) return unsupported(load, "a load of another type");
    Builder builder = Builder::before(module_, &load);
    uint32_t value = builder.valueOfIds(spv::Op::OpLoad, type_, {variable_.resultId()});
    if (!place.whole) value = workItemDimension(builder, builtin(), component_, value, place.index);
    module_.replaceAllUses(load.resultId(), value);
    return module_.remove(&load);
  }

  spv::BuiltIn builtin() const {
    return static_cast<spv::BuiltIn>(
        module_.findDecoration(variable_.resultId(), spv::Decoration::BuiltIn)->wordOperand(2));
  }

  // An Input variable must be in the interface of each entry point that reads it (SPIR-V 1.3 and
  // earlier); old llvm-spirv lists none of its UniformConstant builtins.
  void listInEntryPoints() {
    for (Instruction& entry : module_.section(ir::Section::kEntryPoint)) {
      auto reads = [&](const ir::Function* f) { return f && f->id() == entry.idOperand(1); };
      if (std::none_of(readers_.begin(), readers_.end(), reads)) continue;
      bool listed = false;
      for (size_t i = 3; i < entry.numOperands(); ++i) listed |= entry.idOperand(i) == variable_.resultId();
      if (listed) continue;
      std::vector<Operand> operands = entry.operands();
      operands.push_back(Operand::id(variable_.resultId()));
      module_.update(&entry, Instruction(spv::Op::OpEntryPoint, 0, 0, std::move(operands)));
      changed_ = true;
    }
  }

  Module& module_;
  Instruction& variable_;
  uint32_t type_;
  uint32_t components_;
  uint32_t component_;
  bool changed_ = false;
  std::vector<std::pair<Instruction*, Place>> loads_;  // loads through derived pointers
  std::vector<const ir::Function*> readers_;           // functions that read the variable
  std::vector<Instruction*> derived_;
};

}  // namespace

Expected<PassResult> canonicalizeBuiltinLoads(Module& module, const Target&) {
  std::vector<Instruction*> variables;
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpVariable || !module.findDecoration(inst.resultId(), spv::Decoration::BuiltIn))
      continue;
    auto storage = static_cast<spv::StorageClass>(inst.wordOperand(0));
    if (storage == spv::StorageClass::Input || storage == spv::StorageClass::UniformConstant)
      variables.push_back(&inst);
  }
  bool changed = false;
  for (Instruction* variable : variables) {
    BuiltinVariable builtin(module, *variable);
    CL2VK_TRY(builtin.run());
    changed |= builtin.changed();
  }
  if (changed) module.sortGlobals();  // a variable moved to Input comes before its new pointer type
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
