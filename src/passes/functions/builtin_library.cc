#include "passes/functions/builtin_library.h"

#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/reader.h"

namespace cl2vk {
namespace {

// Generated at build time from src/builtins/<name>.cl (src/CMakeLists.txt, cmake/EmbedWords.cmake).
const uint32_t kFma[] = {
#include "builtins/fma.spv.inc"
};
const uint32_t kFmod[] = {
#include "builtins/fmod.spv.inc"
};
const uint32_t kInverseTrig[] = {
#include "builtins/inverse_trig.spv.inc"
};
const uint32_t kInverseTrigDouble[] = {
#include "builtins/inverse_trig_double.spv.inc"
};
const uint32_t kExpLog[] = {
#include "builtins/exp_log.spv.inc"
};
const uint32_t kTrigDouble[] = {
#include "builtins/trig_double.spv.inc"
};
const uint32_t kPowDouble[] = {
#include "builtins/pow_double.spv.inc"
};
const uint32_t kInverseHyperbolicDouble[] = {
#include "builtins/inverse_hyperbolic_double.spv.inc"
};
const uint32_t kTrigFloat[] = {
#include "builtins/trig_float.spv.inc"
};
const uint32_t kExpLogFloat[] = {
#include "builtins/exp_log_float.spv.inc"
};
const uint32_t kPowFloat[] = {
#include "builtins/pow_float.spv.inc"
};
const uint32_t kInverseHyperbolicFloat[] = {
#include "builtins/inverse_hyperbolic_float.spv.inc"
};
const uint32_t kIlogb[] = {
#include "builtins/ilogb.spv.inc"
};
const uint32_t kErfFloat[] = {
#include "builtins/erf_float.spv.inc"
};
const uint32_t kErfDouble[] = {
#include "builtins/erf_double.spv.inc"
};
const uint32_t kGammaDouble[] = {
#include "builtins/gamma_double.spv.inc"
};
const uint32_t kGammaFloat[] = {
#include "builtins/gamma_float.spv.inc"
};
const uint32_t kImage[] = {
#include "builtins/image.spv.inc"
};
const std::span<const uint32_t> kModules[] = {
    kIlogb,       kErfFloat,
    kErfDouble,   kFmod,
    kInverseTrig, kInverseTrigDouble,
    kExpLog,      kTrigDouble,
    kPowDouble,   kInverseHyperbolicDouble,
    kTrigFloat,   kExpLogFloat,
    kPowFloat,    kInverseHyperbolicFloat,
    kGammaDouble, kGammaFloat,
    kFma,         kImage,
};

// The library's arithmetic is written for IEEE rounding step by step (argument reductions,
// corrections, constants in two parts). Vulkan lets a compiler reassociate and fuse float
// arithmetic unless it is decorated NoContraction (Mesa factors k*hi + k*lo into k*(hi + lo), for
// one), so every float operation of the library gets the decoration, which the import copies.
void forbidReassociation(ir::Module& module) {
  std::vector<uint32_t> results;
  for (const ir::Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks()) {
      for (const ir::Instruction& inst : block.instructions()) {
        switch (inst.opcode()) {
          case spv::Op::OpFAdd:
          case spv::Op::OpFSub:
          case spv::Op::OpFMul:
          case spv::Op::OpFDiv:
          case spv::Op::OpFRem:
          case spv::Op::OpFMod:
          case spv::Op::OpFNegate: results.push_back(inst.resultId()); break;
          default: break;
        }
      }
    }
  }
  for (uint32_t id : results) {
    module.append(
        ir::Section::kAnnotation,
        ir::Instruction(spv::Op::OpDecorate, 0, 0,
                        {ir::Operand::id(id), ir::Operand::enumerant(SPV_OPERAND_TYPE_DECORATION,
                                                                     uint32_t(spv::Decoration::NoContraction))}));
  }
}

struct Library {
  std::vector<std::unique_ptr<ir::Module>> modules;
  std::unordered_map<std::string, BuiltinFunction> functions;
};

const Library& library() {
  static const Library loaded = [] {
    Library result;
    for (std::span<const uint32_t> words : kModules) {
      Expected<std::unique_ptr<ir::Module>> module = ir::readBinary(words);
      // The build compiled these words; a failure here is a build defect, and the lookups below
      // then find nothing, so the instructions are lowered (or refused) as if there were no library.
      if (!module) continue;
      forbidReassociation(**module);
      for (const ir::Function& function : (*module)->functions()) {
        if (function.isDeclaration()) continue;
        result.functions[(*module)->name(function.id())] = BuiltinFunction{module->get(), function.id()};
      }
      result.modules.push_back(std::move(*module));
    }
    return result;
  }();
  return loaded;
}

}  // namespace

BuiltinFunction findBuiltin(std::string_view name) {
  const Library& loaded = library();
  auto it = loaded.functions.find(std::string(name));
  return it == loaded.functions.end() ? BuiltinFunction{} : it->second;
}

}  // namespace cl2vk
