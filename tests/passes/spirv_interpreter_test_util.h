// A tiny interpreter for the subset of SPIR-V that control-flow tests use: integer and boolean
// scalars, function parameters, Function-scope variables, arithmetic, comparisons, OpSelect,
// logical operations, OpPhi, branches, switches and returns. Stores, calls and barriers are the
// side effects: each is appended to a trace, so two versions of a function can be compared on what
// they did as well as on what they returned. OpUndef is poison: a branch on it is an error and a
// side effect or result that carries it is marked, so routing that reads an undefined flag shows.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"

namespace cl2vk::test {

struct InterpreterResult {
  std::vector<std::string> trace;  // side effects in order, then "return <value>"
  std::string error;               // empty when the function ran to a return
  bool operator==(const InterpreterResult&) const = default;
};

class SpirvInterpreter {
 public:
  explicit SpirvInterpreter(const ir::Module& module, uint64_t stepLimit = 100000)
      : module_(module), stepLimit_(stepLimit) {}

  InterpreterResult run(const ir::Function& function, const std::vector<uint64_t>& arguments) {
    InterpreterResult result;
    values_.clear();
    memory_.clear();
    for (const ir::Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() == spv::Op::OpConstant)
        values_[inst.resultId()] = {mask(inst.typeId(), inst.operand(0).words[0]), false};
      if (inst.opcode() == spv::Op::OpConstantTrue) values_[inst.resultId()] = {1, false};
      if (inst.opcode() == spv::Op::OpConstantFalse) values_[inst.resultId()] = {0, false};
      if (inst.opcode() == spv::Op::OpConstantNull) values_[inst.resultId()] = {0, false};
      if (inst.opcode() == spv::Op::OpUndef) values_[inst.resultId()] = {0, true};
    }
    size_t argument = 0;
    for (const ir::Instruction& inst : function.header()) {
      if (inst.opcode() != spv::Op::OpFunctionParameter) continue;
      uint64_t value = argument < arguments.size() ? arguments[argument] : 0;
      ++argument;
      values_[inst.resultId()] = {mask(inst.typeId(), value), false};
    }

    const ir::Block* block = &function.blocks().front();
    const ir::Block* previous = nullptr;
    uint64_t steps = 0;
    while (true) {
      if (++steps > stepLimit_) {
        result.error = "step limit";
        return result;
      }
      // Phis read their values on entry, all at once.
      std::vector<std::pair<uint32_t, Value>> phiValues;
      const ir::Block* next = nullptr;
      for (const ir::Instruction& inst : block->instructions()) {
        spv::Op op = inst.opcode();
        if (op == spv::Op::OpLabel || op == spv::Op::OpSelectionMerge || op == spv::Op::OpLoopMerge) continue;
        if (op == spv::Op::OpPhi) {
          bool found = false;
          for (size_t i = 0; i + 1 < inst.numOperands(); i += 2) {
            if (previous && inst.idOperand(i + 1) == previous->id()) {
              phiValues.emplace_back(inst.resultId(), get(inst.idOperand(i)));
              found = true;
            }
          }
          if (!found) {
            result.error = "phi %" + std::to_string(inst.resultId()) + " has no entry for its predecessor";
            return result;
          }
          continue;
        }
        for (auto& [id, value] : phiValues) values_[id] = value;
        phiValues.clear();
        switch (op) {
          case spv::Op::OpBranch: next = target(inst.idOperand(0)); break;
          case spv::Op::OpBranchConditional: {
            Value condition = get(inst.idOperand(0));
            if (condition.poison) {
              result.error = "branch on an undefined value";
              return result;
            }
            next = target(inst.idOperand(condition.bits ? 1 : 2));
            break;
          }
          case spv::Op::OpSwitch: {
            Value selector = get(inst.idOperand(0));
            if (selector.poison) {
              result.error = "switch on an undefined value";
              return result;
            }
            next = target(inst.idOperand(1));
            for (size_t i = 2; i + 1 < inst.numOperands(); i += 2) {
              if (inst.operand(i).words[0] == static_cast<uint32_t>(selector.bits))
                next = target(inst.idOperand(i + 1));
            }
            break;
          }
          case spv::Op::OpReturn: result.trace.push_back("return"); return result;
          case spv::Op::OpReturnValue: result.trace.push_back("return " + show(get(inst.idOperand(0)))); return result;
          case spv::Op::OpUnreachable: result.error = "reached OpUnreachable"; return result;
          default:
            if (std::string error = execute(inst, result.trace); !error.empty()) {
              result.error = error;
              return result;
            }
        }
        if (next) break;
      }
      if (!next) {
        result.error = "block %" + std::to_string(block->id()) + " has no terminator the interpreter knows";
        return result;
      }
      previous = block;
      block = next;
    }
  }

 private:
  struct Value {
    uint64_t bits = 0;
    bool poison = false;
  };

  uint64_t mask(uint32_t type, uint64_t bits) const {
    const ir::Instruction* def = module_.def(type);
    if (def && def->opcode() == spv::Op::OpTypeBool) return bits ? 1 : 0;
    if (def && def->opcode() == spv::Op::OpTypeInt && def->wordOperand(0) < 64)
      return bits & ((uint64_t{1} << def->wordOperand(0)) - 1);
    return bits;
  }

  int64_t signedValue(uint32_t type, uint64_t bits) const {
    const ir::Instruction* def = module_.def(type);
    uint32_t width = def && def->opcode() == spv::Op::OpTypeInt ? def->wordOperand(0) : 64;
    if (width >= 64) return static_cast<int64_t>(bits);
    uint64_t sign = uint64_t{1} << (width - 1);
    return static_cast<int64_t>((bits ^ sign) - sign);
  }

  Value get(uint32_t id) const {
    auto it = values_.find(id);
    return it == values_.end() ? Value{0, true} : it->second;
  }

  const ir::Block* target(uint32_t label) const { return module_.def(label)->block(); }

  static std::string show(Value value) { return value.poison ? "undef" : std::to_string(value.bits); }

  std::string execute(const ir::Instruction& inst, std::vector<std::string>& trace) {
    auto operand = [&](size_t i) { return get(inst.idOperand(i)); };
    auto set = [&](uint64_t bits, bool poison) { values_[inst.resultId()] = {mask(inst.typeId(), bits), poison}; };
    auto binary = [&](auto op) {
      Value a = operand(0), b = operand(1);
      set(op(a.bits, b.bits), a.poison || b.poison);
    };
    auto compare = [&](auto op) {
      Value a = operand(0), b = operand(1);
      uint32_t type = module_.def(inst.idOperand(0))->typeId();
      set(op(a.bits, b.bits, signedValue(type, a.bits), signedValue(type, b.bits)) ? 1 : 0, a.poison || b.poison);
    };
    switch (inst.opcode()) {
      case spv::Op::OpIAdd: binary([](uint64_t a, uint64_t b) { return a + b; }); break;
      case spv::Op::OpISub: binary([](uint64_t a, uint64_t b) { return a - b; }); break;
      case spv::Op::OpIMul: binary([](uint64_t a, uint64_t b) { return a * b; }); break;
      case spv::Op::OpBitwiseAnd: binary([](uint64_t a, uint64_t b) { return a & b; }); break;
      case spv::Op::OpBitwiseOr: binary([](uint64_t a, uint64_t b) { return a | b; }); break;
      case spv::Op::OpBitwiseXor: binary([](uint64_t a, uint64_t b) { return a ^ b; }); break;
      case spv::Op::OpShiftRightLogical: binary([](uint64_t a, uint64_t b) { return b >= 64 ? 0 : a >> b; }); break;
      case spv::Op::OpUMod: binary([](uint64_t a, uint64_t b) { return b ? a % b : 0; }); break;
      case spv::Op::OpLogicalAnd: binary([](uint64_t a, uint64_t b) { return a & b; }); break;
      case spv::Op::OpLogicalOr: binary([](uint64_t a, uint64_t b) { return a | b; }); break;
      case spv::Op::OpLogicalEqual: binary([](uint64_t a, uint64_t b) { return a == b; }); break;
      case spv::Op::OpLogicalNotEqual: binary([](uint64_t a, uint64_t b) { return a != b; }); break;
      case spv::Op::OpLogicalNot: set(!operand(0).bits, operand(0).poison); break;
      case spv::Op::OpIEqual: compare([](uint64_t a, uint64_t b, int64_t, int64_t) { return a == b; }); break;
      case spv::Op::OpINotEqual: compare([](uint64_t a, uint64_t b, int64_t, int64_t) { return a != b; }); break;
      case spv::Op::OpULessThan: compare([](uint64_t a, uint64_t b, int64_t, int64_t) { return a < b; }); break;
      case spv::Op::OpULessThanEqual: compare([](uint64_t a, uint64_t b, int64_t, int64_t) { return a <= b; }); break;
      case spv::Op::OpUGreaterThan: compare([](uint64_t a, uint64_t b, int64_t, int64_t) { return a > b; }); break;
      case spv::Op::OpSLessThan: compare([](uint64_t, uint64_t, int64_t a, int64_t b) { return a < b; }); break;
      case spv::Op::OpSGreaterThan: compare([](uint64_t, uint64_t, int64_t a, int64_t b) { return a > b; }); break;
      case spv::Op::OpSelect: {
        Value c = operand(0), a = operand(1), b = operand(2);
        Value chosen = c.bits ? a : b;
        set(chosen.bits, chosen.poison || c.poison);
        break;
      }
      case spv::Op::OpCopyObject: set(operand(0).bits, operand(0).poison); break;
      case spv::Op::OpVariable:
        set(0, false);
        memory_[inst.resultId()] = {0, true};
        break;
      case spv::Op::OpLoad: {
        auto it = memory_.find(inst.idOperand(0));
        if (it == memory_.end()) return "load from an unknown pointer";
        set(it->second.bits, it->second.poison);
        break;
      }
      case spv::Op::OpStore:
        memory_[inst.idOperand(0)] = operand(1);
        trace.push_back("store %" + std::to_string(inst.idOperand(0)) + " " + show(operand(1)));
        break;
      case spv::Op::OpControlBarrier: trace.push_back("barrier"); break;
      case spv::Op::OpFunctionCall: {
        std::string call = "call %" + std::to_string(inst.idOperand(0));
        uint64_t hash = inst.idOperand(0);
        bool poison = false;
        for (size_t i = 1; i < inst.numOperands(); ++i) {
          call += " " + show(operand(i));
          hash = hash * 1000003 + operand(i).bits;
          poison = poison || operand(i).poison;
        }
        trace.push_back(call);
        set(hash, poison);
        break;
      }
      default: return "unsupported instruction " + ir::opcodeName(inst.opcode());
    }
    return "";
  }

  const ir::Module& module_;
  uint64_t stepLimit_;
  std::unordered_map<uint32_t, Value> values_;
  std::map<uint32_t, Value> memory_;
};

}  // namespace cl2vk::test
