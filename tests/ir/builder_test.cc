#include "ir/builder.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "ir/validate.h"
#include "passes/pass_test_util.h"
#include "test_util.h"

namespace cl2vk::ir {
namespace {

// The module header every test shares, an OpenCL kernel module of SPIR-V 1.2, with `imports`
// (OpExtInstImport lines) in their place between the capabilities and the memory model.
std::string header(const std::string& imports = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int16
)" + imports +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
)";
}

uint32_t idNamed(const Module& module, const std::string& name) {
  for (const Instruction& inst : module.section(Section::kDebug)) {
    if (inst.opcode() == spv::Op::OpName && inst.stringOperand(1) == name) return inst.idOperand(0);
  }
  ADD_FAILURE() << "no OpName " << name;
  return 0;
}

// Assembles header() + `before`, lets `build` add code to it, and expects the whole module to be
// header(afterImports) + `after`, both canonicalised (fresh ids compare by where they are used);
// with `validFor`, the result must also pass SPIRV-Tools validation for that environment.
void expectBuilt(const std::string& before, const std::function<void(Module&)>& build, const std::string& after,
                 std::optional<spv_target_env> validFor = SPV_ENV_OPENCL_2_2, const std::string& afterImports = "") {
  std::unique_ptr<Module> module = test::assemble(header() + before);
  ASSERT_TRUE(module);
  build(*module);
  EXPECT_EQ(test::canonicalAssembly(*module), test::canonicalAssembly(header(afterImports) + after));
  if (validFor) {
    Status valid = validate(*module, *validFor);
    EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
  }
}

// --- Typed arithmetic ----------------------------------------------------------------------------

// A kernel k(x: uint4, y: float4) whose body is only its return, to insert before.
const char* kVectorKernel = R"(
               OpName %k "k"
               OpName %x "x"
               OpName %y "y"
               OpName %entry "entry"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v4uint = OpTypeVector %uint 4
    %v4float = OpTypeVector %float 4
         %fn = OpTypeFunction %void %v4uint %v4float
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
          %y = OpFunctionParameter %v4float
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

// A builder before the return of the first function's entry block.
Builder beforeReturn(Module& module) {
  return Builder::before(module, module.functions().front().blocks().front().terminator());
}

TEST(BuilderTest, VectorConstantsAreSplattedFromTheirScalar) {
  expectBuilt(
      kVectorKernel,
      [](Module& module) {
        Builder b = beforeReturn(module);
        uint32_t x = idNamed(module, "x"), y = idNamed(module, "y");
        uint32_t v4uint = b.typeOf(x), v4float = b.typeOf(y);
        uint32_t three = b.bits(v4uint, 3);
        b.iadd(x, three);
        b.fmul(y, b.real(v4float, 0.5));
        // The scalar constant is the splatted composite's component, not a second definition.
        EXPECT_EQ(b.bits(b.componentType(v4uint), 3), module.def(three)->idOperand(0));
        // A value that is not a constant is splatted by an instruction.
        b.splat(v4uint, b.extract(b.componentType(v4uint), x, 0));
      },
      R"(
               OpName %k "k"
               OpName %x "x"
               OpName %y "y"
               OpName %entry "entry"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v4uint = OpTypeVector %uint 4
    %v4float = OpTypeVector %float 4
         %fn = OpTypeFunction %void %v4uint %v4float
     %uint_3 = OpConstant %uint 3
     %threes = OpConstantComposite %v4uint %uint_3 %uint_3 %uint_3 %uint_3
  %float_0_5 = OpConstant %float 0.5
    %halves = OpConstantComposite %v4float %float_0_5 %float_0_5 %float_0_5 %float_0_5
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
          %y = OpFunctionParameter %v4float
      %entry = OpLabel
        %sum = OpIAdd %v4uint %x %threes
    %product = OpFMul %v4float %y %halves
      %first = OpCompositeExtract %uint %x 0
     %splat = OpCompositeConstruct %v4uint %first %first %first %first
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, CompareOnAVectorGivesABoolVectorOfItsShape) {
  expectBuilt(
      kVectorKernel,
      [](Module& module) {
        Builder b = beforeReturn(module);
        uint32_t x = idNamed(module, "x"), y = idNamed(module, "y");
        uint32_t v4uint = b.typeOf(x);
        uint32_t less = b.compare(spv::Op::OpULessThan, x, b.bits(v4uint, 7));
        EXPECT_EQ(b.typeOf(less), b.boolType(v4uint));
        b.select(less, x, b.bits(v4uint, 0));
        b.test(spv::Op::OpIsNan, y);
      },
      R"(
               OpName %k "k"
               OpName %x "x"
               OpName %y "y"
               OpName %entry "entry"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v4uint = OpTypeVector %uint 4
    %v4float = OpTypeVector %float 4
         %fn = OpTypeFunction %void %v4uint %v4float
     %uint_7 = OpConstant %uint 7
     %sevens = OpConstantComposite %v4uint %uint_7 %uint_7 %uint_7 %uint_7
       %bool = OpTypeBool
     %v4bool = OpTypeVector %bool 4
     %uint_0 = OpConstant %uint 0
      %zeros = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 %uint_0
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
          %y = OpFunctionParameter %v4float
      %entry = OpLabel
       %less = OpULessThan %v4bool %x %sevens
     %select = OpSelect %v4uint %less %x %zeros
        %nan = OpIsNan %v4bool %y
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, ResizeWidensAndNarrowsInTheSameShape) {
  expectBuilt(
      kVectorKernel,
      [](Module& module) {
        Builder b = beforeReturn(module);
        uint32_t x = idNamed(module, "x");
        b.resize(x, 64);
        b.resizeSigned(x, 16);
        uint32_t first = b.extract(b.componentType(b.typeOf(x)), x, 0);
        b.resizeSigned(first, 64);
        b.resize(first, 16);
        // A value of the asked-for width is itself.
        EXPECT_EQ(b.resize(x, 32), x);
        EXPECT_EQ(b.resizeSigned(first, 32), first);
      },
      R"(
               OpName %k "k"
               OpName %x "x"
               OpName %y "y"
               OpName %entry "entry"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v4uint = OpTypeVector %uint 4
    %v4float = OpTypeVector %float 4
         %fn = OpTypeFunction %void %v4uint %v4float
      %ulong = OpTypeInt 64 0
    %v4ulong = OpTypeVector %ulong 4
     %ushort = OpTypeInt 16 0
   %v4ushort = OpTypeVector %ushort 4
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
          %y = OpFunctionParameter %v4float
      %entry = OpLabel
       %wide = OpUConvert %v4ulong %x
     %narrow = OpSConvert %v4ushort %x
      %first = OpCompositeExtract %uint %x 0
  %firstWide = OpSConvert %ulong %first
%firstNarrow = OpUConvert %ushort %first
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, TypesAndConstantsAlreadyInTheModuleAreReused) {
  const char* kernel = R"(
               OpName %k "k"
               OpName %x "x"
               OpName %entry "entry"
               OpName %three "three"
               OpName %threes "threes"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %three = OpConstant %uint 3
     %v4uint = OpTypeVector %uint 4
     %v4bool = OpTypeVector %bool 4
     %threes = OpConstantComposite %v4uint %three %three %three %three
      %ulong = OpTypeInt 64 0
    %v4ulong = OpTypeVector %ulong 4
         %fn = OpTypeFunction %void %v4uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  expectBuilt(
      kernel,
      [](Module& module) {
        Builder b = beforeReturn(module);
        uint32_t x = idNamed(module, "x");
        size_t globals = module.section(Section::kGlobal).size();
        uint32_t threes = b.bits(b.typeOf(x), 3);
        EXPECT_EQ(threes, idNamed(module, "threes"));
        uint32_t less = b.compare(spv::Op::OpULessThan, x, threes);
        uint32_t wide = b.resize(x, 64);
        uint32_t wideThrees = b.resize(threes, 64);
        b.select(less, wide, wideThrees);
        EXPECT_EQ(module.section(Section::kGlobal).size(), globals) << "no type or constant should have been added";
      },
      R"(
               OpName %k "k"
               OpName %x "x"
               OpName %entry "entry"
               OpName %three "three"
               OpName %threes "threes"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %three = OpConstant %uint 3
     %v4uint = OpTypeVector %uint 4
     %v4bool = OpTypeVector %bool 4
     %threes = OpConstantComposite %v4uint %three %three %three %three
      %ulong = OpTypeInt 64 0
    %v4ulong = OpTypeVector %ulong 4
         %fn = OpTypeFunction %void %v4uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
      %entry = OpLabel
       %less = OpULessThan %v4bool %x %threes
       %wide = OpUConvert %v4ulong %x
 %wideThrees = OpUConvert %v4ulong %threes
     %select = OpSelect %v4ulong %less %wide %wideThrees
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, GlslImportsTheInstructionSetOnce) {
  expectBuilt(
      kVectorKernel,
      [](Module& module) {
        Builder b = beforeReturn(module);
        uint32_t y = idNamed(module, "y");
        uint32_t v4float = b.typeOf(y);
        uint32_t abs = b.glsl(GLSLstd450FAbs, v4float, {y});
        b.glsl(GLSLstd450FMax, v4float, {abs, b.real(v4float, 1.0)});
      },
      R"(
               OpName %k "k"
               OpName %x "x"
               OpName %y "y"
               OpName %entry "entry"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v4uint = OpTypeVector %uint 4
    %v4float = OpTypeVector %float 4
         %fn = OpTypeFunction %void %v4uint %v4float
    %float_1 = OpConstant %float 1
       %ones = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %v4uint
          %y = OpFunctionParameter %v4float
      %entry = OpLabel
        %abs = OpExtInst %v4float %glsl FAbs %y
        %max = OpExtInst %v4float %glsl FMax %abs %ones
               OpReturn
               OpFunctionEnd
)",
      SPV_ENV_OPENCL_2_2, R"(%glsl = OpExtInstImport "GLSL.std.450")");
}

// --- Control flow at the end of a block ----------------------------------------------------------

// A kernel k(p: global uint*, x: uint, n: uint) that computes %a and %c, then stores %a; the
// tests split its entry block after %c and build between.
const char* kStoreKernel = R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)";

// Splits the entry block after %c; `build` adds code at the end of the entry block, which the
// test then ends with a branch to the rest (the store and the return).
void buildAfterC(Module& module, const std::function<void(Builder&)>& build) {
  auto [b, rest] = Builder::splitAfter(module, module.def(idNamed(module, "c")));
  build(b);
  b.branchTo(rest);
}

TEST(BuilderTest, SplitAfterContinuesTheRestInABlockOfItsOwn) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        Block* entry = module.def(idNamed(module, "entry"))->block();
        buildAfterC(module, [&](Builder& b) {
          EXPECT_EQ(b.block(), entry);
          b.store(idNamed(module, "p"), b.imul(idNamed(module, "a"), idNamed(module, "a")));
        });
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
    %product = OpIMul %uint %a %a
               OpStore %p %product
               OpBranch %rest
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, NewBlocksAreLaidOutInTheOrderTheyAreMade) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        uint32_t p = idNamed(module, "p"), a = idNamed(module, "a");
        auto [b, rest] = Builder::splitAfter(module, module.def(idNamed(module, "c")));
        Block* first = b.newBlock();
        Block* second = b.newBlock();
        b.branchTo(first);
        // A builder at the end of a new block appends after its label.
        Builder inFirst = Builder::atEnd(module, *first);
        inFirst.store(p, inFirst.iadd(a, a));
        inFirst.branchTo(second);
        Builder::atEnd(module, *second).branchTo(rest);
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpBranch %first
      %first = OpLabel
        %sum = OpIAdd %uint %a %a
               OpStore %p %sum
               OpBranch %second
     %second = OpLabel
               OpBranch %rest
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, IfThenContinuesInTheMergeBlock) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        buildAfterC(module, [&](Builder& b) {
          uint32_t p = idNamed(module, "p"), a = idNamed(module, "a");
          Block* entry = b.block();
          b.ifThen(idNamed(module, "c"), [&] { b.store(p, b.imul(a, a)); });
          EXPECT_NE(b.block(), entry);
          b.store(p, b.iadd(a, a));
        });
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpBranchConditional %c %then %merge
       %then = OpLabel
    %product = OpIMul %uint %a %a
               OpStore %p %product
               OpBranch %merge
      %merge = OpLabel
        %sum = OpIAdd %uint %a %a
               OpStore %p %sum
               OpBranch %rest
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, IfElseValueIsAPhiOfTheValuesFromTheEndsOfTheArms) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        buildAfterC(module, [&](Builder& b) {
          uint32_t p = idNamed(module, "p"), a = idNamed(module, "a"), n = idNamed(module, "n");
          uint32_t uint = b.typeOf(a);
          uint32_t value = b.ifElseValue(
              idNamed(module, "c"), uint, [&] { return b.iadd(a, a); },
              [&] {
                // An arm with control flow of its own: the phi names the block the arm ends in.
                uint32_t product = b.imul(a, a);
                b.ifThen(b.compare(spv::Op::OpULessThan, product, n), [&] { b.store(p, product); });
                return product;
              });
          b.store(p, value);
        });
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpBranchConditional %c %true %false
       %true = OpLabel
        %sum = OpIAdd %uint %a %a
               OpBranch %merge
      %false = OpLabel
    %product = OpIMul %uint %a %a
      %small = OpULessThan %bool %product %n
               OpBranchConditional %small %innerThen %innerMerge
      %merge = OpLabel
      %value = OpPhi %uint %sum %true %product %innerMerge
               OpStore %p %value
               OpBranch %rest
  %innerThen = OpLabel
               OpStore %p %product
               OpBranch %innerMerge
 %innerMerge = OpLabel
               OpBranch %merge
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, LoopCarriesItsAccumulatorInHeaderPhis) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        buildAfterC(module, [&](Builder& b) {
          uint32_t p = idNamed(module, "p"), a = idNamed(module, "a"), n = idNamed(module, "n");
          uint32_t uint = b.typeOf(a);
          uint32_t zero = b.bits(uint, 0), one = b.bits(uint, 1);
          uint32_t sum = b.foldLoop(zero, n, one, uint, a, [&](uint32_t acc, uint32_t i) { return b.iadd(acc, i); });
          b.store(p, sum);
        });
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
     %uint_0 = OpConstant %uint 0
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %body
        %acc = OpPhi %uint %a %entry %sum %body
       %more = OpULessThan %bool %i %n
               OpBranchConditional %more %body %exit
       %body = OpLabel
        %sum = OpIAdd %uint %acc %i
       %next = OpIAdd %uint %i %uint_1
               OpBranch %header
       %exit = OpLabel
               OpStore %p %acc
               OpBranch %rest
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, LoopWithoutAnAccumulatorHasOnlyTheCounterPhi) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        buildAfterC(module, [&](Builder& b) {
          uint32_t p = idNamed(module, "p"), a = idNamed(module, "a"), n = idNamed(module, "n");
          uint32_t uint = b.typeOf(a);
          uint32_t result = b.loop(
              a, n, [&](uint32_t i) { return b.iadd(i, b.bits(uint, 3)); }, 0, 0,
              [&](uint32_t acc, uint32_t i) {
                EXPECT_EQ(acc, 0u);
                b.store(p, i);
                return 0u;
              });
          EXPECT_EQ(result, 0u);
        });
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
     %uint_3 = OpConstant %uint 3
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %a %entry %next %body
       %more = OpULessThan %bool %i %n
               OpBranchConditional %more %body %exit
       %body = OpLabel
               OpStore %p %i
       %next = OpIAdd %uint %i %uint_3
               OpBranch %header
       %exit = OpLabel
               OpBranch %rest
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

TEST(BuilderTest, ForEachStrideDoublesFromOneAndBranchesBackFromTheEndOfItsBody) {
  expectBuilt(
      kStoreKernel,
      [](Module& module) {
        buildAfterC(module, [&](Builder& b) {
          uint32_t p = idNamed(module, "p"), x = idNamed(module, "x"), n = idNamed(module, "n");
          b.forEachStride(n, [&](uint32_t stride) {
            b.ifThen(b.compare(spv::Op::OpULessThan, x, stride), [&] { b.store(p, stride); });
          });
        });
      },
      R"(
               OpName %k "k"
               OpName %p "p"
               OpName %x "x"
               OpName %n "n"
               OpName %entry "entry"
               OpName %a "a"
               OpName %c "c"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpIAdd %uint %x %uint_1
          %c = OpULessThan %bool %a %n
               OpBranch %header
     %header = OpLabel
     %stride = OpPhi %uint %uint_1 %entry %twice %latch
       %more = OpULessThan %bool %stride %n
               OpBranchConditional %more %body %exit
       %body = OpLabel
     %active = OpULessThan %bool %x %stride
               OpBranchConditional %active %then %latch
       %exit = OpLabel
               OpBranch %rest
       %then = OpLabel
               OpStore %p %stride
               OpBranch %latch
      %latch = OpLabel
      %twice = OpShiftLeftLogical %uint %stride %uint_1
               OpBranch %header
       %rest = OpLabel
               OpStore %p %a
               OpReturn
               OpFunctionEnd
)");
}

}  // namespace
}  // namespace cl2vk::ir
