#include "ir/reader.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <regex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "ir/opcode_classes.h"
#include "support/byte_order.h"

namespace cl2vk::ir {
namespace {

constexpr uint32_t kMagic = spv::MagicNumber;

std::optional<Section> moduleSectionOf(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpCapability: return Section::kCapability;
    case spv::Op::OpExtension: return Section::kExtension;
    case spv::Op::OpExtInstImport: return Section::kExtInstImport;
    case spv::Op::OpMemoryModel: return Section::kMemoryModel;
    case spv::Op::OpEntryPoint: return Section::kEntryPoint;
    case spv::Op::OpExecutionMode:
    case spv::Op::OpExecutionModeId: return Section::kExecutionMode;
    case spv::Op::OpString:
    case spv::Op::OpSourceExtension:
    case spv::Op::OpSource:
    case spv::Op::OpSourceContinued:
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
    case spv::Op::OpModuleProcessed: return Section::kDebug;
    case spv::Op::OpDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpMemberDecorateString:
    case spv::Op::OpDecorationGroup:
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpGroupMemberDecorate: return Section::kAnnotation;
    default: return std::nullopt;
  }
}

// Instructions allowed among the types, constants and global variables.
bool belongsToGlobalSection(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpVariable:
    case spv::Op::OpUndef:
    case spv::Op::OpLine:
    case spv::Op::OpNoLine:
    case spv::Op::OpExtInst:  // non-semantic instructions
      return true;
    default: {
      // Types and constants keep growing with extensions; their names say what they are.
      std::string name = opcodeName(opcode);
      return name.starts_with("OpType") || name.starts_with("OpConstant") || name.starts_with("OpSpecConstant");
    }
  }
}

// SPV_INTEL_memory_access_aliasing's declarations (llvm-spirv-15 --spirv-ext=+all at -O1 and above).
bool isAliasDeclaration(spv::Op opcode) {
  return opcode == spv::Op::OpAliasDomainDeclINTEL || opcode == spv::Op::OpAliasScopeDeclINTEL ||
         opcode == spv::Op::OpAliasScopeListDeclINTEL;
}

// Builds the module one parsed instruction at a time and checks what the IR relies on: layout
// order, complete functions and blocks, and ids that are in bound, defined once and defined.
class ModuleBuilder {
 public:
  explicit ModuleBuilder(size_t totalWords) : module_(std::make_unique<Module>()), totalWords_(totalWords) {}

  spv_result_t onHeader(spv_endianness_t endian, uint32_t version, uint32_t generator, uint32_t bound,
                        uint32_t schema) {
    bool hostLittle = std::endian::native == std::endian::little;
    module_->setByteSwapped((endian == SPV_ENDIANNESS_LITTLE) != hostLittle);
    module_->setVersion(version);
    module_->setGenerator(generator);
    module_->setBound(bound);
    schema_ = schema;
    if (bound == 0) return fail("the header's id bound is 0");
    return SPV_SUCCESS;
  }

  spv_result_t onInstruction(const spv_parsed_instruction_t& parsed) {
    ++instructionIndex_;
    wordsSeen_ += parsed.num_words;
    auto opcode = static_cast<spv::Op>(parsed.opcode);
    Instruction inst(opcode, parsed.type_id, parsed.result_id, operandsOf(parsed));
    if (auto status = checkIds(inst); status != SPV_SUCCESS) return status;
    return place(std::move(inst));
  }

  Expected<std::unique_ptr<Module>> finish() {
    if (error_) return *error_;
    if (schema_ != 0) return Error("unsupported SPIR-V schema " + std::to_string(schema_) + " (only 0 is defined)");
    if (wordsSeen_ + 5 != totalWords_)
      return Error("the binary ends inside an instruction");  // spvBinaryParse reports most cases first
    if (module_->section(Section::kMemoryModel).empty())
      return Error("the module has no OpMemoryModel (SPIR-V 2.4 requires exactly one)");
    if (currentFunction_)
      return Error("function '" + module_->functionName(*currentFunction_) + "' has no OpFunctionEnd");
    for (const auto& [id, user] : firstUse_) {
      if (!defined_.contains(id)) return Error(user + " uses %" + std::to_string(id) + ", which is never defined");
    }
    return std::move(module_);
  }

  const std::optional<Error>& error() const { return error_; }

 private:
  static std::vector<Operand> operandsOf(const spv_parsed_instruction_t& parsed) {
    std::vector<Operand> operands;
    operands.reserve(parsed.num_operands);
    for (uint16_t i = 0; i < parsed.num_operands; ++i) {
      const spv_parsed_operand_t& op = parsed.operands[i];
      // The result type and the result id are held apart from the operands.
      if (op.type == SPV_OPERAND_TYPE_RESULT_ID && parsed.words[op.offset] == parsed.result_id) continue;
      if (op.type == SPV_OPERAND_TYPE_TYPE_ID && op.offset == 1 && parsed.type_id) continue;
      operands.push_back({op.type, {parsed.words + op.offset, parsed.words + op.offset + op.num_words}});
    }
    return operands;
  }

  spv_result_t fail(std::string message) {
    error_ = Error("instruction " + std::to_string(instructionIndex_) + ": " + std::move(message));
    return SPV_ERROR_INVALID_BINARY;
  }

  spv_result_t checkIds(const Instruction& inst) {
    uint32_t bound = module_->bound();
    auto where = [&] { return module_->describe(inst); };
    if (uint32_t id = inst.resultId()) {
      if (id >= bound)
        return fail(opcodeName(inst.opcode()) + " defines %" + std::to_string(id) +
                    ", which is not below the header's id bound " + std::to_string(bound));
      defined_.insert(id);  // spvBinaryParse has already refused a second definition
    }
    auto checkUse = [&](uint32_t id) -> spv_result_t {
      if (id == 0 || id >= bound)
        return fail(where() + " uses %" + std::to_string(id) + ", which is not below the header's id bound " +
                    std::to_string(bound));
      firstUse_.try_emplace(id, "instruction " + std::to_string(instructionIndex_) + " (" + where() + ")");
      return SPV_SUCCESS;
    };
    if (inst.typeId()) {
      if (auto status = checkUse(inst.typeId()); status != SPV_SUCCESS) return status;
    }
    for (const Operand& op : inst.operands()) {
      if (!op.isId()) continue;
      if (auto status = checkUse(op.words[0]); status != SPV_SUCCESS) return status;
    }
    return SPV_SUCCESS;
  }

  spv_result_t place(Instruction inst) {
    spv::Op opcode = inst.opcode();
    if (auto section = moduleSectionOf(opcode)) return placeInSection(*section, std::move(inst));
    if (opcode == spv::Op::OpFunction) {
      if (currentFunction_)
        return fail("OpFunction %" + std::to_string(inst.resultId()) + " starts inside function '" +
                    module_->functionName(*currentFunction_) + "'");
      inFunctions_ = true;
      currentFunction_ = module_->addFunction();
      module_->append(currentFunction_->header(), std::move(inst));
      return SPV_SUCCESS;
    }
    if (!currentFunction_ && isAliasDeclaration(opcode) && !inFunctions_) {
      // llvm-spirv-15 writes them between the debug names and the decorations that use them; they
      // are read into the global section (so this module is not written back bit for bit) and
      // drop-optimization-hints removes them with those decorations.
      module_->append(Section::kGlobal, std::move(inst));
      return SPV_SUCCESS;
    }
    if (!currentFunction_) {
      if (inFunctions_ || !belongsToGlobalSection(opcode))
        return fail(opcodeName(opcode) + " appears outside a function, where it is not allowed");
      return placeInSection(Section::kGlobal, std::move(inst));
    }
    return placeInFunction(std::move(inst));
  }

  spv_result_t placeInSection(Section section, Instruction inst) {
    auto index = static_cast<int>(section);
    if (inFunctions_ || index < lastSection_)
      return fail(opcodeName(inst.opcode()) + " belongs to the " + sectionName(section) +
                  " section but appears after " +
                  (inFunctions_ ? "the functions" : sectionName(static_cast<Section>(lastSection_))) +
                  " (SPIR-V 2.4 logical layout)");
    if (section == Section::kMemoryModel && !module_->section(section).empty())
      return fail("a second OpMemoryModel (SPIR-V 2.4 allows exactly one)");
    lastSection_ = index;
    module_->append(section, std::move(inst));
    return SPV_SUCCESS;
  }

  spv_result_t placeInFunction(Instruction inst) {
    Function& function = *currentFunction_;
    std::string where = "function '" + module_->functionName(function) + "'";
    switch (inst.opcode()) {
      case spv::Op::OpFunctionParameter:
        if (!function.blocks().empty()) return fail("OpFunctionParameter after the first block of " + where);
        module_->append(function.header(), std::move(inst));
        return SPV_SUCCESS;
      case spv::Op::OpLabel:
        if (currentBlock_)
          return fail("block %" + std::to_string(currentBlock_->id()) + " of " + where + " has no terminator");
        currentBlock_ = module_->addBlock(function);
        module_->append(currentBlock_->instructions(), std::move(inst));
        return SPV_SUCCESS;
      case spv::Op::OpFunctionEnd:
        if (currentBlock_)
          return fail("block %" + std::to_string(currentBlock_->id()) + " of " + where + " has no terminator");
        module_->append(function.end(), std::move(inst));
        currentFunction_ = nullptr;
        return SPV_SUCCESS;
      default: break;
    }
    if (!currentBlock_) return fail(opcodeName(inst.opcode()) + " in " + where + " is outside any block");
    bool terminates = isBlockTerminator(inst.opcode());
    module_->append(currentBlock_->instructions(), std::move(inst));
    if (terminates) currentBlock_ = nullptr;
    return SPV_SUCCESS;
  }

  std::unique_ptr<Module> module_;
  size_t totalWords_;
  size_t wordsSeen_ = 0;
  uint32_t schema_ = 0;
  size_t instructionIndex_ = 0;
  int lastSection_ = 0;
  bool inFunctions_ = false;
  Function* currentFunction_ = nullptr;
  Block* currentBlock_ = nullptr;
  std::unordered_set<uint32_t> defined_;
  std::unordered_map<uint32_t, std::string> firstUse_;
  std::optional<Error> error_;
};

spv_result_t headerCallback(void* user, spv_endianness_t endian, uint32_t magic, uint32_t version, uint32_t generator,
                            uint32_t bound, uint32_t schema) {
  (void)magic;  // spvBinaryParse has already checked it
  return static_cast<ModuleBuilder*>(user)->onHeader(endian, version, generator, bound, schema);
}

spv_result_t instructionCallback(void* user, const spv_parsed_instruction_t* parsed) {
  return static_cast<ModuleBuilder*>(user)->onInstruction(*parsed);
}

}  // namespace

Expected<std::unique_ptr<Module>> readBinary(std::span<const uint32_t> words) {
  if (words.empty()) return Error("the input is empty");
  if (words[0] != kMagic && byteSwap(words[0]) != kMagic) return Error("not a SPIR-V binary: wrong magic number");
  if (words.size() < 5)
    return Error("the SPIR-V header is truncated (" + std::to_string(words.size()) + " of 5 words)");
  // Checked here: spvBinaryParse reports an unknown version only as an internal error.
  uint32_t version = words[0] == kMagic ? words[1] : byteSwap(words[1]);
  uint32_t major = version >> 16, minor = (version >> 8) & 0xff;
  if (major != 1 || minor > 6 || (version & 0xff0000ff) != 0)
    return Error("unsupported SPIR-V version " + std::to_string(major) + "." + std::to_string(minor) +
                 " (cl2vk reads 1.0 to 1.6)");

  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_diagnostic diagnostic = nullptr;
  ModuleBuilder builder(words.size());
  spv_result_t result =
      spvBinaryParse(context, &builder, words.data(), words.size(), headerCallback, instructionCallback, &diagnostic);
  std::optional<Error> parseError;
  if (builder.error()) {
    parseError = *builder.error();
  } else if (result != SPV_SUCCESS) {
    std::string message = diagnostic && diagnostic->error ? diagnostic->error : "spvBinaryParse failed";
    // spvBinaryParse's position is the number of the instruction it was reading (from 1).
    size_t instruction = diagnostic ? diagnostic->position.index : 0;
    parseError = Error("invalid SPIR-V at instruction " + std::to_string(instruction) + ": " + message);
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (parseError) return *parseError;
  return builder.finish();
}

Expected<std::unique_ptr<Module>> readBinary(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Error("the input is empty");
  if (bytes.size() % 4 != 0)
    return Error("the input is " + std::to_string(bytes.size()) + " bytes, not a whole number of 32-bit words");
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return readBinary(std::span<const uint32_t>(words));
}

Expected<std::unique_ptr<Module>> readAssembly(std::string_view text) {
  spv_target_env env = SPV_ENV_UNIVERSAL_1_6;
  static const std::regex kVersionLine(R"(;\s*Version:\s*1\.([0-6])\b)");
  std::match_results<std::string_view::const_iterator> match;
  if (std::regex_search(text.begin(), text.end(), match, kVersionLine)) {
    static constexpr spv_target_env kByMinor[] = {SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2,
                                                  SPV_ENV_UNIVERSAL_1_3, SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
                                                  SPV_ENV_UNIVERSAL_1_6};
    env = kByMinor[match[1].str()[0] - '0'];
  }
  spvtools::SpirvTools tools(env);
  std::string diagnostics;
  tools.SetMessageConsumer(
      [&diagnostics](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        diagnostics += "line " + std::to_string(position.line + 1) + ": " + message;
      });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text.data(), text.size(), &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    return Error("cannot assemble the SPIR-V text: " + diagnostics);
  return readBinary(std::span<const uint32_t>(words));
}

Expected<std::unique_ptr<Module>> readBinaryOrAssembly(std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Error("the input is empty");
  bool magic = false;
  if (bytes.size() >= 4) {
    uint32_t first;
    std::memcpy(&first, bytes.data(), 4);
    magic = first == kMagic || byteSwap(first) == kMagic;
  }
  bool hasNul = std::find(bytes.begin(), bytes.end(), uint8_t{0}) != bytes.end();
  if (magic || hasNul) return readBinary(bytes);
  return readAssembly(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace cl2vk::ir
