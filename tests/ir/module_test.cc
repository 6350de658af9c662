#include "ir/module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "ir/builder.h"
#include "ir/types.h"
#include "ir/writer.h"
#include "test_util.h"

namespace cl2vk::ir {
namespace {

using test::assemble;
using test::canonical;
using test::disassemble;

// A small kernel: %sum = x + 1, %twice = sum + sum, with names and a decoration group.
const char* kKernel = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %sum "sum"
               OpName %twice "twice"
               OpName %x "x"
               OpName %entry "entry"
               OpDecorate %group NoSignedWrap
      %group = OpDecorationGroup
               OpGroupDecorate %group %sum %twice
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void %uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
        %sum = OpIAdd %uint %x %uint_1
      %twice = OpIAdd %uint %sum %sum
               OpReturn
               OpFunctionEnd
)";

// `text` with %A, %B, ... replaced by the given ids, for instructions a test has just added.
std::string withIds(std::string text, const std::vector<uint32_t>& ids) {
  for (size_t i = 0; i < ids.size(); ++i) {
    std::string placeholder = std::string("%") + static_cast<char>('A' + i);
    for (size_t at; (at = text.find(placeholder)) != std::string::npos;)
      text.replace(at, placeholder.size(), "%" + std::to_string(ids[i]));
  }
  return text;
}

// The disassembly from the first function's entry block on.
std::string functionBody(const Module& module) {
  std::string text = disassemble(module);
  size_t entry = text.find("%entry = OpLabel");
  EXPECT_NE(entry, std::string::npos) << text;
  return entry == std::string::npos ? text : text.substr(entry);
}

uint32_t idNamed(const Module& module, const std::string& name) {
  for (const Instruction& inst : module.section(Section::kDebug)) {
    if (inst.opcode() == spv::Op::OpName && inst.stringOperand(1) == name) return inst.idOperand(0);
  }
  ADD_FAILURE() << "no OpName " << name;
  return 0;
}

TEST(ModuleTest, DefUseIndexesDefinitionsAndEveryUse) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  uint32_t sum = idNamed(*module, "sum");
  uint32_t twice = idNamed(*module, "twice");

  ASSERT_NE(module->def(sum), nullptr);
  EXPECT_EQ(module->def(sum)->opcode(), spv::Op::OpIAdd);
  EXPECT_EQ(module->def(12345), nullptr);

  int usesByTwice = 0;
  for (const Use& use : module->uses(sum)) {
    if (use.user == module->def(twice)) {
      ++usesByTwice;
      EXPECT_TRUE(use.operandIndex == 0 || use.operandIndex == 1);
    }
  }
  EXPECT_EQ(usesByTwice, 2);

  // The result type of %sum is a use of %uint.
  uint32_t uintType = module->def(sum)->typeId();
  bool typeUse = false;
  for (const Use& use : module->uses(uintType))
    typeUse |= use.user == module->def(sum) && use.operandIndex == Use::kResultType;
  EXPECT_TRUE(typeUse);
}

// setOperand moves the one use it changes: %twice = %sum + %sum becomes %sum + %x.
TEST(ModuleTest, SetOperandMovesOnlyThatOperandsUse) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  const uint32_t sum = idNamed(*module, "sum"), twice = idNamed(*module, "twice"), x = idNamed(*module, "x");
  Instruction* add = module->def(twice);
  module->setOperand(add, 1, Operand::id(x));
  EXPECT_EQ(add->idOperand(0), sum);
  EXPECT_EQ(add->idOperand(1), x);
  auto usesBy = [&](uint32_t id) {
    std::vector<int> operands;
    for (const Use& use : module->uses(id)) {
      if (use.user == add) operands.push_back(use.operandIndex);
    }
    return operands;
  };
  EXPECT_EQ(usesBy(sum), std::vector<int>{0});
  EXPECT_EQ(usesBy(x), std::vector<int>{1});
  // A constant's operands index it: after the change get-or-create finds it by its new value.
  Instruction* one = module->def(module->def(sum)->idOperand(1));
  ASSERT_EQ(one->opcode(), spv::Op::OpConstant);
  module->setOperand(one, 0, Operand::number({7}));
  EXPECT_EQ(constantUint(*module, 32, 7), one->resultId());
}

TEST(ModuleTest, NamesAndDecorationsIncludingDecorationGroups) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  uint32_t sum = idNamed(*module, "sum");
  EXPECT_EQ(module->name(sum), "sum");
  EXPECT_EQ(module->name(module->def(sum)->typeId()), "");
  EXPECT_NE(module->findDecoration(sum, spv::Decoration::NoSignedWrap), nullptr);
  EXPECT_EQ(module->findDecoration(sum, spv::Decoration::Alignment), nullptr);
  EXPECT_EQ(module->functionName(module->functions().front()), "k");
  EXPECT_EQ(module->describe(*module->def(sum)), "%" + std::to_string(sum) + " = OpIAdd in function 'k'");
}

TEST(ModuleTest, BuilderInsertsBeforeAndAfterInOrder) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  Instruction* twice = module->def(idNamed(*module, "twice"));
  uint32_t sum = idNamed(*module, "sum");

  Builder before = Builder::before(*module, twice);
  uint32_t a = before.valueOfIds(spv::Op::OpISub, twice->typeId(), {sum, sum});
  uint32_t b = before.valueOfIds(spv::Op::OpIMul, twice->typeId(), {a, sum});
  Builder after = Builder::after(*module, twice);
  uint32_t c = after.valueOfIds(spv::Op::OpBitwiseAnd, twice->typeId(), {b, twice->resultId()});
  after.valueOfIds(spv::Op::OpBitwiseOr, twice->typeId(), {c, c});

  EXPECT_EQ(canonical(withIds(R"(
%entry = OpLabel
%sum = OpIAdd %uint %x %uint_1
%A = OpISub %uint %sum %sum
%B = OpIMul %uint %A %sum
%twice = OpIAdd %uint %sum %sum
%C = OpBitwiseAnd %uint %B %twice
%D = OpBitwiseOr %uint %C %C
OpReturn
OpFunctionEnd
)",
                              {a, b, c, c + 1})),
            canonical(functionBody(*module)));
  EXPECT_EQ(module->bound(), c + 2);
  EXPECT_EQ(module->uses(a).size(), 1u);
  EXPECT_EQ(module->def(c)->function(), &module->functions().front());
}

TEST(ModuleTest, RemovingAnInstructionThatIsStillUsedFailsAndChangesNothing) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  uint32_t sum = idNamed(*module, "sum");
  std::string before = disassemble(*module);

  Status status = module->remove(module->def(sum));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message(), "cannot remove %" + std::to_string(sum) +
                                          " = OpIAdd in function 'k': it is still used by %" +
                                          std::to_string(idNamed(*module, "twice")) + " = OpIAdd in function 'k'");
  EXPECT_EQ(before, disassemble(*module));
}

TEST(ModuleTest, RemovalTakesNamesAndDecorationsAlongAndKeepsDefUseRight) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  uint32_t sum = idNamed(*module, "sum");
  uint32_t twice = idNamed(*module, "twice");

  ASSERT_TRUE(module->remove(module->def(twice)).ok());
  EXPECT_EQ(module->def(twice), nullptr);
  EXPECT_TRUE(module->uses(twice).empty());
  // %sum lost its two uses by %twice; what is left are its name and its group decoration.
  for (const Use& use : module->uses(sum)) {
    EXPECT_TRUE(use.user->opcode() == spv::Op::OpName || use.user->opcode() == spv::Op::OpGroupDecorate);
  }
  ASSERT_TRUE(module->remove(module->def(sum)).ok());
  EXPECT_TRUE(module->uses(sum).empty());

  std::string text = disassemble(*module);
  EXPECT_EQ(text.find("OpName %sum"), std::string::npos);
  EXPECT_EQ(text.find("\"twice\""), std::string::npos);
  // The decoration group stays, with no targets left.
  size_t groupDecorate = text.find("OpGroupDecorate");
  ASSERT_NE(groupDecorate, std::string::npos) << text;
  std::string line = text.substr(groupDecorate, text.find('\n', groupDecorate) - groupDecorate);
  EXPECT_EQ(std::count(line.begin(), line.end(), '%'), 1) << line;
}

// An entry point may list an interface variable twice (found by the fuzzer:
// tests/fuzz/regressions/builtin-listed-twice-in-interface.spv); removing the variable drops both
// and reads no operand past the end of the shortened list.
TEST(ModuleTest, RemovingAVariableListedTwiceInAnInterfaceDropsBoth) {
  auto module = assemble(R"(
; Version: 1.4
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %id %other %id
               OpName %id "id"
               OpName %other "other"
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
        %ptr = OpTypePointer Input %v3ulong
         %id = OpVariable %ptr Input
      %other = OpVariable %ptr Input
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  uint32_t id = idNamed(*module, "id");
  ASSERT_TRUE(module->remove(module->def(id)).ok());
  std::string text = disassemble(*module);
  EXPECT_NE(text.find("\"k\" %other\n"), std::string::npos) << text;
}

TEST(ModuleTest, ReplaceAllUsesRewritesEveryOperand) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  uint32_t sum = idNamed(*module, "sum");
  uint32_t twice = idNamed(*module, "twice");
  Instruction* x = &*std::next(module->functions().front().header().begin());

  module->replaceAllUses(sum, x->resultId());
  EXPECT_EQ(module->def(twice)->idOperand(0), x->resultId());
  EXPECT_EQ(module->def(twice)->idOperand(1), x->resultId());
  for (const Use& use : module->uses(sum)) {
    EXPECT_TRUE(use.user->opcode() == spv::Op::OpName || use.user->opcode() == spv::Op::OpGroupDecorate);
  }
  // %sum's operand and both of %twice's, plus x's own name; %sum keeps its name and decoration.
  EXPECT_EQ(module->uses(x->resultId()).size(), 4u);
  EXPECT_EQ(module->name(sum), "sum");
  EXPECT_NE(module->findDecoration(sum, spv::Decoration::NoSignedWrap), nullptr);
}

TEST(ModuleTest, UpdateReindexesTheChangedInstruction) {
  auto module = assemble(kKernel);
  ASSERT_TRUE(module);
  Instruction* twice = module->def(idNamed(*module, "twice"));
  uint32_t sum = idNamed(*module, "sum");
  uint32_t one = module->def(sum)->idOperand(1);

  module->update(
      twice, Instruction(spv::Op::OpIMul, twice->typeId(), twice->resultId(), {Operand::id(sum), Operand::id(one)}));
  EXPECT_EQ(twice->opcode(), spv::Op::OpIMul);
  size_t usesOfSumByTwice = 0;
  for (const Use& use : module->uses(sum)) usesOfSumByTwice += use.user == twice;
  EXPECT_EQ(usesOfSumByTwice, 1u);
}

TEST(ModuleTest, SplitBlockMovesTheTailAndRetargetsPhis) {
  auto module = assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %a "a"
               OpName %b "b"
               OpName %p "p"
               OpName %x "x"
               OpName %c "c"
               OpName %entry "entry"
               OpName %then "then"
               OpName %merge "merge"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void %uint %bool
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %b = OpIAdd %uint %a %uint_1
               OpSelectionMerge %merge None
               OpBranchConditional %c %then %merge
       %then = OpLabel
               OpBranch %merge
      %merge = OpLabel
          %p = OpPhi %uint %a %entry %b %then
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  Instruction* b = module->def(idNamed(*module, "b"));
  Block* entry = b->block();
  Block* tail = module->splitBlockBefore(b);
  Builder::atEnd(*module, *entry).add(spv::Op::OpBranch, 0, {Operand::id(tail->id())});

  EXPECT_EQ(canonical(withIds(R"(
%entry = OpLabel
%a = OpIAdd %uint %x %uint_1
OpBranch %A
%A = OpLabel
%b = OpIAdd %uint %a %uint_1
OpSelectionMerge %merge None
OpBranchConditional %c %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%p = OpPhi %uint %a %A %b %then
OpReturn
OpFunctionEnd
)",
                              {tail->id()})),
            canonical(functionBody(*module)));
  EXPECT_EQ(b->block(), tail);
}

TEST(ModuleTest, RemoveFunctionRefusesWhileCalledAndRemovesWholeOtherwise) {
  auto module = assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %helper "helper"
               OpName %call "call"
               OpDecorate %helper LinkageAttributes "helper" Import
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
     %helper = OpFunction %void None %fn
               OpFunctionEnd
          %k = OpFunction %void None %fn
      %entry = OpLabel
       %call = OpFunctionCall %void %helper
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  Function* helper = &module->functions().front();
  ASSERT_TRUE(helper->isDeclaration());
  uint32_t helperId = helper->id();
  Status refused = module->removeFunction(helper);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("cannot remove function 'helper': it is still used by"), std::string::npos);

  ASSERT_TRUE(module->remove(module->def(idNamed(*module, "call"))).ok());
  ASSERT_TRUE(module->removeFunction(helper).ok());
  EXPECT_EQ(module->functions().size(), 1u);
  EXPECT_EQ(module->function(helperId), nullptr);
  EXPECT_EQ(module->def(helperId), nullptr);
  EXPECT_TRUE(module->section(Section::kDebug).empty()) << disassemble(*module);
  EXPECT_TRUE(module->section(Section::kAnnotation).empty());
}

// Two helpers that call each other go together; either alone is still called by the other, and a
// set that a kernel still calls is refused whole.
TEST(ModuleTest, RemoveFunctionsTakesASetThatCallsItself) {
  auto module = assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %ping "ping"
               OpName %pong "pong"
               OpName %caller "caller"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %ping = OpFunction %void None %fn
         %p0 = OpLabel
         %p1 = OpFunctionCall %void %pong
               OpReturn
               OpFunctionEnd
       %pong = OpFunction %void None %fn
         %q0 = OpLabel
         %q1 = OpFunctionCall %void %ping
               OpReturn
               OpFunctionEnd
     %caller = OpFunction %void None %fn
         %c0 = OpLabel
         %c1 = OpFunctionCall %void %ping
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  Function* ping = module->function(idNamed(*module, "ping"));
  Function* pong = module->function(idNamed(*module, "pong"));
  Function* caller = module->function(idNamed(*module, "caller"));
  Status alone = module->removeFunction(pong);
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.error().message().find("cannot remove function 'pong': it is still used by"), std::string::npos)
      << alone.error().message();
  Status stillCalled = module->removeFunctions({ping, pong});
  ASSERT_FALSE(stillCalled.ok());
  EXPECT_NE(stillCalled.error().message().find("cannot remove function 'ping': it is still used by"), std::string::npos)
      << stillCalled.error().message();
  EXPECT_EQ(module->functions().size(), 4u);

  ASSERT_TRUE(module->removeFunctions({ping, caller, pong}).ok());
  ASSERT_EQ(module->functions().size(), 1u);
  EXPECT_EQ(module->functions().front().id(), module->section(Section::kEntryPoint).front().idOperand(1));
  EXPECT_TRUE(module->section(Section::kDebug).empty()) << disassemble(*module);
  EXPECT_EQ(module->uses(module->functions().front().definition().operand(1).words[0]).size(), 1u);  // %fn: k only
}

// A helper that uses one constant 200000 times (hashcat's kernels, inlined, use %uint_0 so): its
// removal drops those uses at once. Dropped one by one, each searched its list, and removing such
// functions took minutes; the uses left by the kernel are still indexed.
TEST(ModuleTest, RemovingAFunctionDropsManyUsesOfOneIdAtOnce) {
  std::string body;
  for (int i = 0; i < 100000; ++i) body += "%r" + std::to_string(i) + " = OpIAdd %uint %uint_0 %uint_0\n";
  auto module = assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %uint_0 "uint_0"
               OpName %kept "kept"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
         %fn = OpTypeFunction %void
     %helper = OpFunction %void None %fn
       %body = OpLabel
)" + body + R"(
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn
      %entry = OpLabel
       %kept = OpIAdd %uint %uint_0 %uint_0
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  uint32_t zero = idNamed(*module, "uint_0");
  ASSERT_EQ(module->uses(zero).size(), 200003u);  // with its OpName
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(module->removeFunction(&module->functions().front()).ok());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0) << "removing the function took " << seconds << " s";
  const std::vector<Use>& left = module->uses(zero);
  ASSERT_EQ(left.size(), 3u);
  const Instruction* kept = module->def(idNamed(*module, "kept"));
  EXPECT_EQ(std::count_if(left.begin(), left.end(), [&](const Use& use) { return use.user == kept; }), 2);
  EXPECT_EQ(module->functions().size(), 1u);
}

TEST(ModuleTest, RemoveBlockRefusesWhileReachableAndRemovesAnUnusedOne) {
  auto module = assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %dead "dead"
               OpName %next "next"
               OpName %v "v"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpBranch %next
       %dead = OpLabel
          %v = OpIAdd %uint %uint_1 %uint_1
               OpBranch %next
       %next = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  Block* next = module->def(idNamed(*module, "next"))->block();
  Status refused = module->removeBlock(next);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("is still used by OpBranch"), std::string::npos)
      << refused.error().message();

  uint32_t v = idNamed(*module, "v");
  ASSERT_TRUE(module->removeBlock(module->def(idNamed(*module, "dead"))->block()).ok());
  EXPECT_EQ(module->functions().front().blocks().size(), 2u);
  EXPECT_EQ(module->def(v), nullptr);
  EXPECT_EQ(module->name(v), "");
  EXPECT_TRUE(module->uses(module->def(idNamed(*module, "next"))->resultId()).size() >= 1);
}

}  // namespace
}  // namespace cl2vk::ir
