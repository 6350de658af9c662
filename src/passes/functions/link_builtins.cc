#include "passes/functions/link_builtins.h"

#include <spirv/unified1/OpenCL.std.h>

#include <map>
#include <unordered_map>

#include "ir/builder.h"
#include "ir/import.h"
#include "passes/functions/builtin_library.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

// The OpenCL.std instructions the library computes, by the name its functions carry
// (__cl2vk_<name>_f32, _f64). The native_ and half_ forms are not here: they keep the fast
// GLSL.std.450 instructions, as OpenCL allows.
const std::unordered_map<uint32_t, const char*>& libraryFunctions() {
  using namespace OpenCLLIB;
  static const std::unordered_map<uint32_t, const char*> table = {
      {Fmod, "fmod"},     {Asin, "asin"},     {Acos, "acos"},     {Atan, "atan"},       {Atan2, "atan2"},
      {Asinpi, "asinpi"}, {Acospi, "acospi"}, {Atanpi, "atanpi"}, {Atan2pi, "atan2pi"}, {Exp, "exp"},
      {Exp2, "exp2"},     {Exp10, "exp10"},   {Expm1, "expm1"},   {Log, "log"},         {Log2, "log2"},
      {Log10, "log10"},   {Log1p, "log1p"},   {Sinh, "sinh"},     {Cosh, "cosh"},       {Tanh, "tanh"},
  };
  return table;
}

uint32_t openclStdImport(const ir::Module& module) {
  for (const ir::Instruction& inst : module.section(ir::Section::kExtInstImport)) {
    if (inst.stringOperand(0) == "OpenCL.std") return inst.resultId();
  }
  return 0;
}

class Linker {
 public:
  explicit Linker(ir::Module& module) : module_(module) {}

  Expected<bool> lower(ir::Instruction& inst) {
    auto entry = libraryFunctions().find(inst.wordOperand(1));
    if (entry == libraryFunctions().end()) return false;
    ir::Builder b = ir::Builder::before(module_, &inst);
    uint32_t component = b.componentType(inst.typeId());
    if (!b.isFloat(component)) return false;
    std::string name = std::string("__cl2vk_") + entry->second + "_f" + std::to_string(b.width(component));
    BuiltinFunction builtin = findBuiltin(name);
    if (!builtin.module) return false;  // lower-opencl-std lowers or refuses it
    auto importer = importers_.try_emplace(builtin.module, module_, *builtin.module).first;
    Expected<uint32_t> function = importer->second.import(builtin.id);
    if (!function) return Error(module_.describe(inst) + ": " + function.error().message());

    std::vector<uint32_t> args;
    for (size_t i = 2; i < inst.numOperands(); ++i) args.push_back(inst.idOperand(i));
    uint32_t count = b.componentCount(inst.typeId());
    std::vector<uint32_t> results;
    for (uint32_t i = 0; i < count; ++i) {
      std::vector<uint32_t> operands = {*function};
      for (uint32_t arg : args) operands.push_back(count == 1 ? arg : b.extract(component, arg, i));
      results.push_back(b.op(spv::Op::OpFunctionCall, component, operands));
    }
    uint32_t result = count == 1 ? results[0] : b.op(spv::Op::OpCompositeConstruct, inst.typeId(), results);
    module_.replaceAllUses(inst.resultId(), result);
    CL2VK_TRY(module_.remove(&inst));
    return true;
  }

 private:
  ir::Module& module_;
  std::map<const ir::Module*, ir::FunctionImporter> importers_;
};

}  // namespace

Expected<PassResult> linkBuiltins(ir::Module& module, const Target&) {
  uint32_t import = openclStdImport(module);
  if (import == 0) return PassResult::kUnchanged;
  Linker linker(module);
  auto isOpenclStd = [import](const ir::Instruction& inst) {
    return inst.opcode() == spv::Op::OpExtInst && inst.idOperand(0) == import;
  };
  return lowerInstructions(module, isOpenclStd,
                           [&linker](ir::Module&, ir::Instruction& inst) { return linker.lower(inst); });
}

}  // namespace cl2vk
