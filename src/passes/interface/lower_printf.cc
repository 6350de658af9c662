#include "passes/interface/lower_printf.h"

#include <spirv/unified1/OpenCL.std.h>

#include <cctype>
#include <span>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/interface/hidden_parameters.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

// The bytes of a constant's value, for the i8 arrays that hold string literals.
std::optional<std::string> constantBytes(const Module& module, uint32_t constant) {
  const Instruction* def = module.def(constant);
  if (!def) return std::nullopt;
  if (def->opcode() == spv::Op::OpConstantNull) {
    Expected<TypeLayout> layout = layoutOf(module, def->typeId());
    if (!layout) return std::nullopt;
    return std::string(layout->size, '\0');
  }
  if (def->opcode() != spv::Op::OpConstantComposite) return std::nullopt;
  std::string bytes;
  for (size_t i = 0; i < def->numOperands(); ++i) {
    const Instruction* element = module.def(def->idOperand(i));
    if (!element || ir::scalarWidth(module, element->typeId()) != 8) return std::nullopt;
    std::optional<uint64_t> value =
        element->opcode() == spv::Op::OpConstantNull ? 0 : constantValue(module, def->idOperand(i));
    if (!value) return std::nullopt;
    bytes.push_back(static_cast<char>(*value));
  }
  return bytes;
}

// The string `pointer` points at when it is a constant one: a constant variable's initializer,
// reached through casts and access chains with constant indices; nothing otherwise.
std::optional<std::string> constantString(const Module& module, uint32_t pointer) {
  uint64_t offset = 0;
  for (int depth = 0; depth < 16; ++depth) {
    const Instruction* def = module.def(pointer);
    if (!def) return std::nullopt;
    spv::Op opcode = def->opcode();
    size_t first = 0;  // OpSpecConstantOp wraps the same operands after its opcode
    if (opcode == spv::Op::OpSpecConstantOp) {
      opcode = static_cast<spv::Op>(def->wordOperand(0));
      first = 1;
    }
    switch (opcode) {
      case spv::Op::OpBitcast:
      case spv::Op::OpPtrCastToGeneric:
      case spv::Op::OpGenericCastToPtr:
      case spv::Op::OpGenericCastToPtrExplicit: pointer = def->idOperand(first); continue;
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain:
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain: {
        uint32_t base = def->idOperand(first);
        uint32_t baseType = ir::typeOf(module, base);
        if (!ir::isPointerType(module, baseType)) return std::nullopt;
        uint32_t type = ir::pointeeOf(module, baseType);
        size_t index = first + 1;
        bool stepsOverPointee = opcode == spv::Op::OpPtrAccessChain || opcode == spv::Op::OpInBoundsPtrAccessChain;
        for (; index < def->numOperands(); ++index) {
          std::optional<uint64_t> step = constantValue(module, def->idOperand(index));
          if (!step) return std::nullopt;
          if (stepsOverPointee) {
            stepsOverPointee = false;
          } else {
            const Instruction* array = module.def(type);
            if (!array || array->opcode() != spv::Op::OpTypeArray) return std::nullopt;
            type = array->idOperand(0);
          }
          Expected<TypeLayout> layout = layoutOf(module, type);
          if (!layout) return std::nullopt;
          offset += *step * layout->size;
        }
        pointer = base;
        continue;
      }
      case spv::Op::OpVariable: {
        if (def->wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::UniformConstant) || def->numOperands() < 2)
          return std::nullopt;
        std::optional<std::string> bytes = constantBytes(module, def->idOperand(1));
        if (!bytes || offset > bytes->size()) return std::nullopt;
        std::string text = bytes->substr(offset);
        return text.substr(0, text.find('\0'));
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

// Removes `id`'s definition when nothing uses it any more, then the operands only it used: the
// format string's access chain and a float's promotion to double, which would otherwise ask
// the device for what the record does not need.
Status removeIfUnused(Module& module, uint32_t id) {
  Instruction* def = module.def(id);
  if (!def || !def->block() || module.isUsed(id)) return okStatus();
  switch (def->opcode()) {  // only what has no effect besides its value
    case spv::Op::OpFConvert:
    case spv::Op::OpBitcast:
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain: break;
    default: return okStatus();
  }
  std::vector<uint32_t> operands;
  for (size_t i = 0; i < def->numOperands(); ++i) {
    if (def->operand(i).isId()) operands.push_back(def->idOperand(i));
  }
  CL2VK_TRY(module.remove(def));
  for (uint32_t operand : operands) CL2VK_TRY(removeIfUnused(module, operand));
  return okStatus();
}

// The conversion letter of each conversion in a printf format, in order: after each '%' (but "%%")
// the first letter that is not a vector or length modifier ('v', 'h', 'l').
std::vector<char> conversionsOf(const std::string& format) {
  std::vector<char> conversions;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 < format.size() && format[i + 1] == '%') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < format.size() && (!std::isalpha(static_cast<unsigned char>(format[j])) || format[j] == 'v' ||
                                 format[j] == 'h' || format[j] == 'l'))
      ++j;
    if (j < format.size()) conversions.push_back(format[j]);
    i = j;
  }
  return conversions;
}

class PrintfLowering {
 public:
  PrintfLowering(Module& module, PassContext& context, uint32_t buffer)
      : module_(module), context_(context), buffer_(buffer), uint_(ir::typeInt(module, 32)) {}

  Status lower(Instruction& call) {
    auto failure = [&](const std::string& why) { return ir::refuse(module_, call, why); };
    if (call.numOperands() < 3) return failure("printf without a format");
    std::optional<std::string> format = constantString(module_, call.idOperand(2));
    if (!format) return failure("the printf format is not a constant string");
    PrintfFormat record{*format, {}};
    std::vector<uint32_t> operands;  // the format, then the arguments
    for (size_t i = 2; i < call.numOperands(); ++i) operands.push_back(call.idOperand(i));
    // A %s argument is formatted on the host, so its string must be known here.
    std::vector<char> conversions = conversionsOf(*format);
    for (size_t i = 0; i + 1 < operands.size() && i < conversions.size(); ++i) {
      if (conversions[i] == 's' && !constantString(module_, operands[i + 1]))
        return failure("printf argument " + std::to_string(i + 1) + " for %s is not a constant string");
    }

    auto [builder, rest] = Builder::splitAfter(module_, &call);
    Builder& b = builder;
    std::vector<uint32_t> words = {ir::constantUint(module_, 32, context_.reflection.printfFormats.size())};
    for (uint32_t operand : std::span(operands).subspan(1)) {
      PrintfArgument argument;
      Status status = argumentWords(b, operand, argument, words);
      if (!status) return failure(status.error().message());
      record.arguments.push_back(std::move(argument));
    }

    // Reserve the record's words; write them only when they all fit, else the record is dropped
    // and printf returns -1 (the runtime still sees how many words were asked for).
    uint32_t pointerType = ir::typePointer(module_, spv::StorageClass::CrossWorkgroup, uint_);
    uint32_t count = ir::constantUint(module_, 32, words.size());
    uint32_t reserved = b.op(spv::Op::OpAtomicIAdd, uint_,
                             {buffer_, ir::constantUint(module_, 32, static_cast<uint32_t>(spv::Scope::Device)),
                              ir::constantUint(module_, 32, 0), count});
    uint32_t capacityPointer = b.op(spv::Op::OpInBoundsPtrAccessChain, pointerType,
                                    {buffer_, ir::constantUint(module_, 32, PrintfBufferLayout::kCapacityWords)});
    uint32_t capacity = b.load(uint_, capacityPointer, 4);
    uint32_t roomForOne = b.compare(spv::Op::OpULessThanEqual, count, capacity);
    uint32_t roomLeft = b.compare(spv::Op::OpULessThanEqual, reserved, b.isub(capacity, count));
    uint32_t fits = b.compare(spv::Op::OpLogicalAnd, roomForOne, roomLeft);
    b.ifThen(fits, [&] {
      uint32_t first = b.iadd(reserved, ir::constantUint(module_, 32, PrintfBufferLayout::kFirstRecordWord));
      for (size_t i = 0; i < words.size(); ++i) {
        uint32_t index = i == 0 ? first : b.iadd(first, ir::constantUint(module_, 32, i));
        b.store(b.op(spv::Op::OpInBoundsPtrAccessChain, pointerType, {buffer_, index}), words[i], 4);
      }
    });
    uint32_t success = ir::constantBits(module_, call.typeId(), 0);
    uint32_t failed = ir::constantBits(module_, call.typeId(), 0xffffffffu);
    uint32_t result = b.select(fits, success, failed);
    b.branchTo(rest);
    context_.reflection.printfFormats.push_back(std::move(record));

    module_.replaceAllUses(call.resultId(), result);
    CL2VK_TRY(module_.remove(&call));
    for (uint32_t operand : operands) CL2VK_TRY(removeIfUnused(module_, operand));
    return okStatus();
  }

 private:
  // Describes `value` in `argument` and appends the words that carry it.
  Status argumentWords(Builder& b, uint32_t value, PrintfArgument& argument, std::vector<uint32_t>& words) {
    uint32_t type = b.typeOf(value);
    const Instruction* typeDef = type ? module_.def(type) : nullptr;
    if (!typeDef) return Error("a printf argument that is not a value (%" + std::to_string(value) + ")");
    if (ir::isPointerType(module_, type)) {
      if (std::optional<std::string> text = constantString(module_, value)) {
        argument.kind = PrintfArgument::Kind::kString;
        argument.text = *text;
        return okStatus();
      }
      argument.kind = PrintfArgument::Kind::kPointer;
      argument.bits = 64;
      appendComponent(b, b.op(spv::Op::OpConvertPtrToU, ir::typeInt(module_, 64), {value}), words);
      return okStatus();
    }
    if (!ir::intWidth(module_, type) && !ir::floatWidth(module_, type))
      return Error("a printf argument of type " + ir::opcodeName(typeDef->opcode()).substr(2) + " is not supported");
    // The front end promotes float arguments to double; the float itself is exact and needs no
    // 64-bit floating point on the device.
    const Instruction* def = module_.def(value);
    if (def && def->opcode() == spv::Op::OpFConvert && b.width(type) == 64 &&
        b.width(b.typeOf(def->idOperand(0))) < 64) {
      value = def->idOperand(0);
      type = b.typeOf(value);
    }
    argument.kind = b.isFloat(type) ? PrintfArgument::Kind::kFloat : PrintfArgument::Kind::kInt;
    argument.components = b.componentCount(type);
    argument.bits = b.width(type);
    for (uint32_t c = 0; c < argument.components; ++c) {
      uint32_t component = argument.components == 1 ? value : b.extract(b.componentType(type), value, c);
      appendComponent(b, component, words);
    }
    return okStatus();
  }

  // A scalar as one word (8 and 16-bit integers sign-extended, half widened to float) or two.
  void appendComponent(Builder& b, uint32_t scalar, std::vector<uint32_t>& words) {
    uint32_t type = b.typeOf(scalar);
    uint32_t width = b.width(type);
    if (width == 64) {
      uint32_t pair = b.bitcast(ir::typeVector(module_, uint_, 2), scalar);
      words.push_back(b.extract(uint_, pair, 0));
      words.push_back(b.extract(uint_, pair, 1));
    } else if (b.isFloat(type)) {
      if (width == 16) scalar = b.op(spv::Op::OpFConvert, ir::typeFloat(module_, 32), {scalar});
      words.push_back(b.bitcast(uint_, scalar));
    } else {
      words.push_back(b.resizeSigned(scalar, 32));
    }
  }

  Module& module_;
  PassContext& context_;
  uint32_t buffer_;
  uint32_t uint_;
};

bool isPrintf(const Module& module, const Instruction& inst) {
  return ir::openclStdInstruction(module, inst) == OpenCLLIB::Printf;
}

}  // namespace

Expected<PassResult> lowerPrintf(Module& module, PassContext& context) {
  PassResult result = PassResult::kUnchanged;
  for (Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    if (entry.wordOperand(0) != static_cast<uint32_t>(spv::ExecutionModel::Kernel)) continue;
    Function* kernel = module.function(entry.idOperand(1));
    std::vector<Instruction*> calls;
    for (ir::Block& block : kernel->blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (isPrintf(module, inst)) calls.push_back(&inst);
      }
    }
    if (calls.empty()) continue;
    uint32_t bufferType = ir::typePointer(module, spv::StorageClass::CrossWorkgroup, ir::typeInt(module, 32));
    PrintfLowering lowering(module, context, addHiddenParameter(module, *kernel, bufferType, kPrintfBufferName));
    for (Instruction* call : calls) CL2VK_TRY(lowering.lower(*call));
    result = PassResult::kChanged;
  }
  // What is left is in functions that are not kernels, which inline-functions removes or inlines.
  for (Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (isPrintf(module, inst))
          return Error(module.describe(inst) + ": printf outside a kernel (inline-functions runs first)");
      }
    }
  }
  return result;
}

}  // namespace cl2vk
