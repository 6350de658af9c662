// kernelModule: one kernel of a translated module, cut from the binary in one reading of it.
//
// A runtime makes a pipeline per kernel, so a program of n kernels is cut n times: each cut reads
// the instructions once with spvBinaryParse (typed operands, no index of definitions and uses)
// and writes the ones the kernel needs. The kernel keeps its entry point and execution modes,
// every function it reaches through OpFunctionCall, the global variables those functions or its
// entry point name, and every other global (types and constants are shared and cheap). Names and
// decorations of what is dropped go with it.

#include <spirv-tools/libspirv.h>

#include <unordered_map>
#include <unordered_set>

#include "cl2vk/translator.h"
#include "ir/instruction.h"

namespace cl2vk {
namespace {

// One instruction of the binary: where its words are and the ids it names.
struct Parsed {
  spv::Op opcode;
  uint32_t offset;  // of its first word, from the start of the binary
  uint32_t wordCount;
  uint32_t resultId;
  uint32_t firstId, idCount;  // its id operands (the result id excepted) in Reading::ids
  uint32_t nameOffset = 0;    // OpEntryPoint: the word of its name
};

struct Reading {
  std::vector<Parsed> instructions;
  std::vector<uint32_t> ids;
};

spv_result_t readInstruction(void* user, const spv_parsed_instruction_t* inst) {
  auto& reading = *static_cast<Reading*>(user);
  Parsed parsed{static_cast<spv::Op>(inst->opcode),        0, inst->num_words, inst->result_id,
                static_cast<uint32_t>(reading.ids.size()), 0};
  for (uint16_t i = 0; i < inst->num_operands; ++i) {
    const spv_parsed_operand_t& op = inst->operands[i];
    if (op.type == SPV_OPERAND_TYPE_LITERAL_STRING && parsed.opcode == spv::Op::OpEntryPoint)
      parsed.nameOffset = op.offset;
    if (!ir::isIdKind(op.type) || op.type == SPV_OPERAND_TYPE_RESULT_ID) continue;
    reading.ids.push_back(inst->words[op.offset]);
    ++parsed.idCount;
  }
  // The instructions come in order, from just after the five words of the header.
  const std::vector<Parsed>& before = reading.instructions;
  parsed.offset = before.empty() ? 5 : before.back().offset + before.back().wordCount;
  reading.instructions.push_back(parsed);
  return SPV_SUCCESS;
}

// Names and decorations: their first id is what they name or decorate (a decoration group's
// targets follow it).
bool isDebugOrAnnotation(spv::Op op) {
  using O = spv::Op;
  return op == O::OpName || op == O::OpMemberName || op == O::OpDecorate || op == O::OpMemberDecorate ||
         op == O::OpDecorateId || op == O::OpDecorateString || op == O::OpMemberDecorateString ||
         op == O::OpGroupDecorate || op == O::OpGroupMemberDecorate;
}

}  // namespace

Expected<std::vector<uint32_t>> kernelModule(std::span<const uint32_t> translatedSpirv, const std::string& kernel) {
  Reading reading;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_diagnostic diagnostic = nullptr;
  spv_result_t parsed = spvBinaryParse(context, &reading, translatedSpirv.data(), translatedSpirv.size(), nullptr,
                                       readInstruction, &diagnostic);
  std::string why = diagnostic ? diagnostic->error : "";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS)
    return Error("internal error: cannot read the translated module to extract kernel '" + kernel + "': " + why);
  auto idsOf = [&](const Parsed& inst) {
    return std::span<const uint32_t>(reading.ids.data() + inst.firstId, inst.idCount);
  };
  auto wordsOf = [&](const Parsed& inst) { return translatedSpirv.subspan(inst.offset, inst.wordCount); };

  // Functions: where each begins, and the entry point's function.
  std::unordered_map<uint32_t, size_t> functionStart;  // function id -> index of its OpFunction
  std::unordered_map<uint32_t, uint32_t> functionOf;   // id defined in a function -> the function
  std::unordered_set<uint32_t> globalVariables;
  uint32_t entryFunction = 0, function = 0;
  for (size_t i = 0; i < reading.instructions.size(); ++i) {
    const Parsed& inst = reading.instructions[i];
    if (inst.opcode == spv::Op::OpFunction) functionStart[inst.resultId] = i, function = inst.resultId;
    if (inst.opcode == spv::Op::OpFunctionEnd) function = 0;
    if (function && inst.resultId && inst.resultId != function) functionOf[inst.resultId] = function;
    if (inst.opcode == spv::Op::OpVariable && !function) globalVariables.insert(inst.resultId);
    if (inst.opcode == spv::Op::OpEntryPoint && inst.nameOffset &&
        ir::Operand{SPV_OPERAND_TYPE_LITERAL_STRING, {wordsOf(inst).begin() + inst.nameOffset, wordsOf(inst).end()}}
                .asString() == kernel)
      entryFunction = idsOf(inst)[0];
  }
  if (!entryFunction) return Error("the module has no kernel named '" + kernel + "'");

  // The functions the kernel reaches, and every id they (and its entry point) name.
  std::unordered_set<uint32_t> keptFunctions{entryFunction};
  std::unordered_set<uint32_t> named;
  std::vector<uint32_t> pending{entryFunction};
  while (!pending.empty()) {
    uint32_t next = pending.back();
    pending.pop_back();
    auto start = functionStart.find(next);
    if (start == functionStart.end()) continue;
    for (size_t i = start->second; reading.instructions[i].opcode != spv::Op::OpFunctionEnd; ++i) {
      const Parsed& inst = reading.instructions[i];
      for (uint32_t id : idsOf(inst)) named.insert(id);
      if (inst.opcode == spv::Op::OpFunctionCall && keptFunctions.insert(idsOf(inst)[1]).second)
        pending.push_back(idsOf(inst)[1]);
    }
  }
  // Globals other than variables stay, and so do the variables they name (an initializer).
  for (const Parsed& inst : reading.instructions) {
    if (inst.opcode == spv::Op::OpFunction) break;
    bool global = !isDebugOrAnnotation(inst.opcode) && inst.opcode != spv::Op::OpEntryPoint &&
                  inst.opcode != spv::Op::OpExecutionMode && inst.opcode != spv::Op::OpExecutionModeId;
    if (global && inst.opcode != spv::Op::OpVariable)
      for (uint32_t id : idsOf(inst)) named.insert(id);
    if (inst.opcode == spv::Op::OpEntryPoint && idsOf(inst)[0] == entryFunction)
      for (uint32_t id : idsOf(inst)) named.insert(id);
  }
  // What the cut leaves out: the other functions and what they define (their decorations, say
  // NoContraction, must go too), and the variables nothing kept names.
  auto droppedFunction = [&](uint32_t id) { return functionStart.contains(id) && !keptFunctions.contains(id); };
  auto dropped = [&](uint32_t id) {
    auto owner = functionOf.find(id);
    return droppedFunction(id) || (owner != functionOf.end() && droppedFunction(owner->second)) ||
           (globalVariables.contains(id) && !named.contains(id));
  };

  std::vector<uint32_t> result(translatedSpirv.begin(), translatedSpirv.begin() + 5);  // the header
  result.reserve(translatedSpirv.size());
  for (size_t i = 0; i < reading.instructions.size(); ++i) {
    const Parsed& inst = reading.instructions[i];
    std::span<const uint32_t> ids = idsOf(inst);
    bool keep = true;
    switch (inst.opcode) {
      case spv::Op::OpEntryPoint:
      case spv::Op::OpExecutionMode:
      case spv::Op::OpExecutionModeId: keep = ids[0] == entryFunction; break;
      case spv::Op::OpVariable: keep = !dropped(inst.resultId); break;
      case spv::Op::OpFunction:
        if (dropped(inst.resultId)) {
          while (reading.instructions[i].opcode != spv::Op::OpFunctionEnd) ++i;
          continue;
        }
        break;
      case spv::Op::OpGroupDecorate:
      case spv::Op::OpGroupMemberDecorate: {
        // The decoration group, then its targets (with a member number each for members).
        std::span<const uint32_t> words = wordsOf(inst);
        size_t stride = inst.opcode == spv::Op::OpGroupDecorate ? 1 : 2;
        std::vector<uint32_t> targets;
        for (size_t w = 2; w + stride <= words.size(); w += stride) {
          if (!dropped(words[w])) targets.insert(targets.end(), words.begin() + w, words.begin() + w + stride);
        }
        if (!targets.empty()) {
          result.push_back(static_cast<uint32_t>(2 + targets.size()) << 16 | static_cast<uint32_t>(inst.opcode));
          result.push_back(words[1]);
          result.insert(result.end(), targets.begin(), targets.end());
        }
        continue;
      }
      default: keep = !isDebugOrAnnotation(inst.opcode) || ids.empty() || !dropped(ids[0]);
    }
    if (keep) result.insert(result.end(), wordsOf(inst).begin(), wordsOf(inst).end());
  }
  return result;
}

}  // namespace cl2vk
