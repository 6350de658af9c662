// The state of lower-wide-vectors (lower_wide_vectors.h says what the pass does) and the steps that
// use it: lower_wide_vectors.cc runs the pass and rewrites the module outside function bodies
// (memory types, global constants, parameters); wide_vectors_instructions.cc lowers the
// instructions that make or read wide values; wide_vectors_memory.cc lowers their loads, stores,
// access chains, vloadn and vstoren.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/builder.h"
#include "ir/module.h"
#include "passes/pass.h"
#include "passes/vectors/wide_vectors_parts.h"

namespace cl2vk::wide_vectors {

using ir::Builder;
using ir::Instruction;
using ir::Module;
using ir::Operand;

class WideVectorLowering {
 public:
  explicit WideVectorLowering(Module& module) : module_(module), parts_(module) {}

  Expected<PassResult> run();

 private:
  bool wanted(const Instruction& inst) const;

  // The module outside function bodies (lower_wide_vectors.cc).
  Status retypeMemory();
  Status replaceGlobalValues();
  void splitParameters();
  Status removeWideTypes();

  // Function bodies: one small lowering per kind of instruction (wide_vectors_instructions.cc).
  Status lower(Instruction& inst);
  void replaceByParts(Instruction& inst, std::vector<uint32_t> parts);
  void replaceByValue(Instruction& inst, uint32_t value);
  Expected<Operand> partOperand(Builder& b, const Operand& operand, uint32_t k);
  Status componentWise(Instruction& inst);
  Status extInst(Instruction& inst);
  Status bitcast(Instruction& inst);
  Status anyAll(Instruction& inst);
  Status compositeConstruct(Instruction& inst);
  std::vector<uint32_t> regroup(Builder& b, const Instruction& inst, const std::vector<Component>& components);
  Status vectorShuffle(Instruction& inst);
  Status compositeExtract(Instruction& inst);
  Status compositeInsert(Instruction& inst);
  bool splitLiteralPath(uint32_t type, std::vector<Operand>& path);
  Status vectorExtractDynamic(Instruction& inst);
  Expected<uint32_t> extractDynamic(Builder& b, uint32_t vector, uint32_t index, uint32_t type);
  Status shuffle(Instruction& inst, bool twoInputs);
  Status vectorInsertDynamic(Instruction& inst);
  Status phi(Instruction& inst);
  Status completePhis();
  Status copyObject(Instruction& inst);
  Status undef(Instruction& inst);

  // Memory accesses (wide_vectors_memory.cc).
  uint32_t partOffset(Builder& b, uint32_t offset, uint32_t n, uint32_t k);
  Status vectorLoad(Instruction& inst);
  Status vectorStore(Instruction& inst);
  Status load(Instruction& inst);
  Status store(Instruction& inst);
  Status accessChain(Instruction& inst);

  Module& module_;
  WideParts parts_;
  std::vector<Instruction*> dead_;
  std::vector<std::pair<Instruction*, uint32_t>> partPhis_;
  std::unordered_set<const Instruction*> parameterParts_;  // made before the walk, not to be lowered again
};

}  // namespace cl2vk::wide_vectors
