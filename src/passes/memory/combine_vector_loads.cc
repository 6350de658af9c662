#include "passes/memory/combine_vector_loads.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "ir/opcode_classes.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Module;
using ir::Operand;

bool combinable(spv::StorageClass storage) {
  return storage == spv::StorageClass::Workgroup || storage == spv::StorageClass::Function;
}

// The type reached from `pointee` through the access chain's indices [first, last).
std::optional<uint32_t> indexedType(const Module& module, uint32_t pointee, const Instruction& chain, size_t first,
                                    size_t last) {
  uint32_t type = pointee;
  for (size_t i = first; i < last; ++i) {
    const Instruction* def = module.def(type);
    if (def == nullptr) return std::nullopt;
    switch (def->opcode()) {
      case spv::Op::OpTypeArray:
      case spv::Op::OpTypeRuntimeArray:
      case spv::Op::OpTypeVector:
      case spv::Op::OpTypeMatrix: type = def->idOperand(0); break;
      case spv::Op::OpTypeStruct: {
        const Instruction* member = module.def(chain.idOperand(i));
        if (member == nullptr || member->opcode() != spv::Op::OpConstant) return std::nullopt;
        if (member->wordOperand(0) >= def->numOperands()) return std::nullopt;
        type = def->idOperand(member->wordOperand(0));
        break;
      }
      default: return std::nullopt;
    }
  }
  return type;
}

// A component load: `load` reads component `component` of the vector of type `vector` that the
// access chain without its last index points to.
struct ComponentLoad {
  Instruction* load;
  Instruction* chain;
  uint32_t component;
};

// The vector a group of component loads reads: the chain's base and leading indices.
struct VectorKey {
  spv::StorageClass storage;
  std::vector<uint32_t> address;  // base, then every index but the last
  uint32_t vector;                // the vector type
  bool operator<(const VectorKey& other) const {
    return std::tie(storage, address, vector) < std::tie(other.storage, other.address, other.vector);
  }
};

// `load` as a component load of a vector in Workgroup or Function memory, if it is one.
std::optional<std::pair<VectorKey, ComponentLoad>> componentLoad(const Module& module, Instruction& load) {
  // A volatile (or otherwise qualified beyond alignment) load stays as it is.
  if (load.numOperands() > 1 && (load.wordOperand(1) & ~static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)) != 0)
    return std::nullopt;
  Instruction* chain = module.def(load.idOperand(0));
  if (chain == nullptr ||
      (chain->opcode() != spv::Op::OpAccessChain && chain->opcode() != spv::Op::OpInBoundsAccessChain) ||
      chain->numOperands() < 2)
    return std::nullopt;
  if (!ir::isPointerType(module, chain->typeId())) return std::nullopt;
  const spv::StorageClass storage = ir::storageOf(module, chain->typeId());
  if (!combinable(storage)) return std::nullopt;
  const Instruction* component = module.def(chain->idOperand(chain->numOperands() - 1));
  if (component == nullptr || component->opcode() != spv::Op::OpConstant) return std::nullopt;
  // A 64-bit index's high word must be zero too.
  if (component->numOperands() > 1 && component->wordOperand(1) != 0) return std::nullopt;
  uint32_t basePointer = ir::typeOf(module, chain->idOperand(0));
  if (!ir::isPointerType(module, basePointer)) return std::nullopt;
  std::optional<uint32_t> vector =
      indexedType(module, ir::pointeeOf(module, basePointer), *chain, 1, chain->numOperands() - 1);
  if (!vector || !ir::isVectorType(module, *vector) || ir::componentType(module, *vector) != load.typeId())
    return std::nullopt;
  uint32_t index = component->wordOperand(0);
  if (index >= ir::componentCount(module, *vector)) return std::nullopt;
  VectorKey key{storage, {}, *vector};
  for (size_t i = 0; i + 1 < chain->numOperands(); ++i) key.address.push_back(chain->idOperand(i));
  return std::make_pair(std::move(key), ComponentLoad{&load, chain, index});
}

// Whether `inst` may write memory of `storage` (or order it against other invocations').
bool mayWrite(const Module& module, const Instruction& inst, spv::StorageClass storage) {
  spv::Op op = inst.opcode();
  if (op == spv::Op::OpControlBarrier || op == spv::Op::OpMemoryBarrier || op == spv::Op::OpFunctionCall) return true;
  if (op == spv::Op::OpStore || op == spv::Op::OpCopyMemory || op == spv::Op::OpCopyMemorySized || ir::isAtomic(op)) {
    const uint32_t type = ir::typeOf(module, inst.idOperand(0));
    return !ir::isPointerType(module, type) || ir::storageOf(module, type) == storage;
  }
  return false;
}

class Combiner {
 public:
  explicit Combiner(Module& module) : module_(module) {}

  bool run(Block& block) {
    std::vector<Instruction*> order;
    for (Instruction& inst : block.instructions()) order.push_back(&inst);
    for (Instruction* inst : order) {
      for (auto it = groups_.begin(); it != groups_.end();) {
        if (mayWrite(module_, *inst, it->first.storage)) {
          combine(it->first, it->second);
          it = groups_.erase(it);
        } else {
          ++it;
        }
      }
      if (inst->opcode() != spv::Op::OpLoad) continue;
      if (auto found = componentLoad(module_, *inst)) groups_[found->first].push_back(found->second);
    }
    for (auto& [key, loads] : groups_) combine(key, loads);
    groups_.clear();
    return changed_;
  }

 private:
  void combine(const VectorKey& key, const std::vector<ComponentLoad>& loads) {
    if (loads.size() < 2) return;
    Instruction* first = loads.front().load;
    uint32_t pointer = key.address.front();
    if (key.address.size() > 1) {
      std::vector<Operand> operands;
      for (uint32_t id : key.address) operands.push_back(Operand::id(id));
      pointer = module_.takeId();
      module_.insertBefore(
          first, Instruction(loads.front().chain->opcode(), ir::typePointer(module_, key.storage, key.vector), pointer,
                             std::move(operands)));
    }
    uint32_t vector = module_.takeId();
    module_.insertBefore(first, Instruction(spv::Op::OpLoad, key.vector, vector, {Operand::id(pointer)}));
    std::vector<Instruction*> chains;
    for (const ComponentLoad& load : loads) {
      module_.update(load.load, Instruction(spv::Op::OpCompositeExtract, load.load->typeId(), load.load->resultId(),
                                            {Operand::id(vector), Operand::literal(load.component)}));
      if (std::find(chains.begin(), chains.end(), load.chain) == chains.end()) chains.push_back(load.chain);
    }
    for (Instruction* chain : chains) {
      if (module_.uses(chain->resultId()).empty()) (void)module_.remove(chain);
    }
    changed_ = true;
  }

  Module& module_;
  std::map<VectorKey, std::vector<ComponentLoad>> groups_;
  bool changed_ = false;
};

}  // namespace

Expected<PassResult> combineVectorLoads(Module& module, const Target&) {
  bool changed = false;
  for (ir::Function& function : module.functions()) {
    for (Block& block : function.blocks()) {
      Combiner combiner(module);
      changed |= combiner.run(block);
    }
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
