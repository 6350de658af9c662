#include "passes/functions/link_builtins.h"

#include <spirv/unified1/OpenCL.std.h>

#include <map>
#include <string_view>
#include <unordered_map>

#include "ir/builder.h"
#include "ir/import.h"
#include "passes/functions/builtin_library.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

// The OpenCL.std instructions the library computes, by the name its functions carry
// (__cl2vk_<name>_f32, _f64). The native_ forms are not here: they keep the fast GLSL.std.450
// instructions, as OpenCL allows. Nor are the half_ forms whose instruction meets their 8192 ULP
// (exp, exp2, exp10, sqrt, rsqrt, recip, divide); half_sin, half_cos and half_tan (whose
// instructions Vulkan bounds only in [-pi, pi]), half_log, half_log2 and half_log10 (bounded only
// absolutely near 1) and half_powr missed it on NVIDIA (the CTS's math_brute_force: 41 000 ULP),
// so they are the precise functions, which relaxed math leaves to the instructions.
const std::unordered_map<uint32_t, const char*>& libraryFunctions() {
  using namespace OpenCLLIB;
  static const std::unordered_map<uint32_t, const char*> table = {
      {Fmod, "fmod"},      {Asin, "asin"},     {Acos, "acos"},     {Atan, "atan"},         {Atan2, "atan2"},
      {Asinpi, "asinpi"},  {Acospi, "acospi"}, {Atanpi, "atanpi"}, {Atan2pi, "atan2pi"},   {Exp, "exp"},
      {Exp2, "exp2"},      {Exp10, "exp10"},   {Expm1, "expm1"},   {Log, "log"},           {Log2, "log2"},
      {Log10, "log10"},    {Log1p, "log1p"},   {Sinh, "sinh"},     {Cosh, "cosh"},         {Tanh, "tanh"},
      {Sin, "sin"},        {Cos, "cos"},       {Tan, "tan"},       {Sincos, "sincos"},     {Pow, "pow"},
      {Pown, "pown"},      {Powr, "powr"},     {Rootn, "rootn"},   {Cbrt, "cbrt"},         {Erf, "erf"},
      {Erfc, "erfc"},      {Tgamma, "tgamma"}, {Lgamma, "lgamma"}, {Lgamma_r, "lgamma_r"}, {Remainder, "remainder"},
      {Remquo, "remquo"},  {Sinpi, "sinpi"},   {Cospi, "cospi"},   {Tanpi, "tanpi"},       {Ilogb, "ilogb"},
      {Logb, "logb"},      {Asinh, "asinh"},   {Acosh, "acosh"},   {Atanh, "atanh"},       {Half_sin, "sin"},
      {Half_cos, "cos"},   {Half_tan, "tan"},  {Half_log, "log"},  {Half_log2, "log2"},    {Half_log10, "log10"},
      {Half_powr, "powr"}, {Fma, "fma"},
  };
  return table;
}

// The float functions that GLSL.std.450 computes, or that lower-opencl-std derives from its
// instructions, within OpenCL's relaxed-math bounds: for a program built with
// -cl-fast-relaxed-math or -cl-unsafe-math-optimizations (Target::relaxedMath), they keep the fast
// instructions. Not exp, exp2 and exp10: Vulkan bounds their instructions by 3 + 2|x| ULP, OpenCL's
// relaxed math by 3 + floor(2|x|), and llvmpipe's Exp was 3.0015 ULP off at x = -0.031 (the CTS's
// math_brute_force); they stay the library's. Nor log, log2 and log10: OpenCL's relaxed bound is
// their precise one where the device keeps denormals, and llvmpipe's Log and Log2 take a denormal
// for the smallest normal (log(2^-141) came out as log(2^-127), a million ULP off: the CTS again).
bool relaxedMathUsesGlsl(uint32_t instruction) {
  using namespace OpenCLLIB;
  switch (instruction) {
    case Sin:
    case Cos:
    case Tan:
    case Half_sin:
    case Half_cos:
    case Half_tan:
    case Half_log:
    case Half_log2:
    case Half_log10:
    case Half_powr:
    case Sincos:
    case Asin:
    case Acos:
    case Atan:
    case Atan2:
    case Asinpi:
    case Acospi:
    case Atanpi:
    case Atan2pi:
    case Sinh:
    case Cosh:
    case Tanh:
    case Asinh:
    case Acosh:
    case Atanh:
    case Expm1:
    case Log1p:
    case Pow:
    case Pown:
    case Powr:
    case Rootn:
    case Cbrt: return true;
    default: return false;
  }
}

uint32_t openclStdImport(const ir::Module& module) {
  for (const ir::Instruction& inst : module.section(ir::Section::kExtInstImport)) {
    if (inst.stringOperand(0) == "OpenCL.std") return inst.resultId();
  }
  return 0;
}

class Linker {
 public:
  Linker(ir::Module& module, const Target& target) : module_(module), target_(target) {}

  Expected<bool> lower(ir::Instruction& inst) {
    auto entry = libraryFunctions().find(inst.wordOperand(1));
    if (entry == libraryFunctions().end()) return false;
    ir::Builder b = ir::Builder::before(module_, &inst);
    std::vector<uint32_t> args;
    for (size_t i = 2; i < inst.numOperands(); ++i) args.push_back(inst.idOperand(i));
    // The first operand is the float the function is named after (ilogb's result is an int).
    if (args.empty() || !b.isFloat(b.componentType(b.typeOf(args[0])))) return false;
    uint32_t width = b.width(b.componentType(b.typeOf(args[0])));
    // With relaxed math, lower-opencl-std gives the float and half functions that GLSL.std.450
    // computes its instruction. Otherwise half goes through the float function (widened, the
    // result rounded once): GLSL.std.450's half forms are only as accurate as the driver's half
    // arithmetic, which on NVIDIA missed OpenCL's half bounds (cos 4 ULP, cbrt 4.8, pow 9.6, fmod
    // wrong: the CTS's math_brute_force).
    if (target_.relaxedMath && width <= 32 && relaxedMathUsesGlsl(inst.wordOperand(1))) return false;
    // A fused Fma is OpenCL's fma; the library's is for a driver that rounds twice.
    if (inst.wordOperand(1) == OpenCLLIB::Fma && target_.fusedFma) return false;
    Expected<uint32_t> result = 0;
    std::string_view name = entry->second;
    if (name == "sincos" || name == "remquo" || name == "lgamma_r") {
      // The result and a second value through the pointer, the last operand: two library calls
      // (sin and cos; the remainder and the quotient's bits; lgamma and the sign of gamma).
      bool sincos = name == "sincos";
      std::string second = sincos ? "cos" : std::string(name) + (name == "remquo" ? "_quotient" : "_sign");
      std::vector<uint32_t> inputs(args.begin(), args.end() - 1);
      uint32_t pointer = args.back();
      result = call(b, inst, sincos ? "sin" : name, inputs, inst.typeId());
      if (!result || *result == 0) return result ? Expected<bool>(false) : result.error();
      uint32_t pointee = module_.def(b.typeOf(pointer))->idOperand(1);
      Expected<uint32_t> secondValue = call(b, inst, second, inputs, pointee);
      if (!secondValue) return secondValue.error();
      if (*secondValue == 0)
        return Error(module_.describe(inst) + ": the builtin library lacks " + second + " for " + std::string(name));
      b.store(pointer, *secondValue);
    } else {
      result = call(b, inst, name, args, inst.typeId());
    }
    if (!result) return result.error();
    if (*result == 0) return false;  // lower-opencl-std lowers or refuses it
    module_.replaceAllUses(inst.resultId(), *result);
    CL2VK_TRY(module_.remove(&inst));
    return true;
  }

 private:
  // __cl2vk_<name>_f<width of the first operand> of `args`, a value of `type`, per component for a
  // vector; 0 when the library has no such function. Half operands go widened to the function's
  // _f16 form where it has one (a float result that is a half: fma, which must not round twice),
  // else to the float function, and a half result comes back rounded.
  Expected<uint32_t> call(ir::Builder& b, const ir::Instruction& inst, std::string_view name,
                          const std::vector<uint32_t>& args, uint32_t type) {
    uint32_t component = b.componentType(type);
    uint32_t width = b.width(b.componentType(b.typeOf(args[0])));
    bool half = width == 16;
    // The form built on fma first, where the target takes it (Target::fusedLibraryForms).
    auto find = [&](uint32_t bits) {
      std::string function = "__cl2vk_" + std::string(name) + "_f" + std::to_string(bits);
      BuiltinFunction fused = target_.fusedLibraryForms ? findBuiltin(function + "_fused") : BuiltinFunction{};
      return fused.module ? fused : findBuiltin(function);
    };
    BuiltinFunction builtin = find(width);
    if (half && !builtin.module) builtin = find(32);
    if (!builtin.module) return 0;
    auto importer = importers_.try_emplace(builtin.module, module_, *builtin.module).first;
    Expected<uint32_t> imported = importer->second.import(builtin.id);
    if (!imported) return Error(module_.describe(inst) + ": " + imported.error().message());
    uint32_t count = b.componentCount(type);
    std::vector<uint32_t> results;
    for (uint32_t i = 0; i < count; ++i) {
      std::vector<uint32_t> operands = {*imported};
      for (uint32_t arg : args) {
        // A scalar operand of a vector call stands for every component.
        bool vector = b.isVector(b.typeOf(arg));
        uint32_t value = vector ? b.extract(b.componentType(b.typeOf(arg)), arg, i) : arg;
        if (half && b.isFloat(b.typeOf(value)))
          value = b.op(spv::Op::OpFConvert, b.floatType(b.typeOf(value), 32), {value});
        operands.push_back(value);
      }
      bool halfResult = half && b.isFloat(component);
      uint32_t result = b.op(spv::Op::OpFunctionCall, halfResult ? b.floatType(component, 32) : component, operands);
      results.push_back(halfResult ? b.op(spv::Op::OpFConvert, component, {result}) : result);
    }
    return count == 1 ? results[0] : b.op(spv::Op::OpCompositeConstruct, type, results);
  }

  ir::Module& module_;
  const Target& target_;
  std::map<const ir::Module*, ir::FunctionImporter> importers_;
};

}  // namespace

Expected<PassResult> linkBuiltins(ir::Module& module, const Target& target) {
  uint32_t import = openclStdImport(module);
  if (import == 0) return PassResult::kUnchanged;
  Linker linker(module, target);
  auto isOpenclStd = [import](const ir::Instruction& inst) {
    return inst.opcode() == spv::Op::OpExtInst && inst.idOperand(0) == import;
  };
  auto lower = [&linker](ir::Module&, ir::Instruction& inst) { return linker.lower(inst); };
  Expected<PassResult> linked = lowerInstructions(module, isOpenclStd, lower);
  if (!linked || target.fusedFma) return linked;
  // The library's forms built on fma (Target::fusedLibraryForms) call fma themselves: where the
  // driver's Fma rounds twice, those calls, imported just now, get the library's exact fma too.
  auto isFma = [&isOpenclStd](const ir::Instruction& inst) {
    return isOpenclStd(inst) && inst.wordOperand(1) == OpenCLLIB::Fma;
  };
  Expected<PassResult> exact = lowerInstructions(module, isFma, lower);
  if (!exact) return exact;
  return *linked == PassResult::kChanged || *exact == PassResult::kChanged ? PassResult::kChanged
                                                                           : PassResult::kUnchanged;
}

}  // namespace cl2vk
