#include "passes/functions/resolve_builtin_calls.h"

#include <optional>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "ir/builder.h"
#include "ir/capabilities.h"
#include "ir/collectives.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Instruction;
using ir::Module;
using ir::Operand;

// A scalar parameter type of OpenCL C, as its Itanium mangling code says.
struct ScalarType {
  enum class Kind { kSigned, kUnsigned, kFloat };
  Kind kind;
  uint32_t width;
};

using Kind = ScalarType::Kind;

// The builtin-type codes of the Itanium ABI that OpenCL C scalars mangle to (size_t is m on spir64).
constexpr std::pair<std::string_view, ScalarType> kTypeCodes[] = {
    {"Dh", {Kind::kFloat, 16}}, {"f", {Kind::kFloat, 32}},    {"d", {Kind::kFloat, 64}},  {"a", {Kind::kSigned, 8}},
    {"c", {Kind::kSigned, 8}},  {"h", {Kind::kUnsigned, 8}},  {"s", {Kind::kSigned, 16}}, {"t", {Kind::kUnsigned, 16}},
    {"i", {Kind::kSigned, 32}}, {"j", {Kind::kUnsigned, 32}}, {"l", {Kind::kSigned, 64}}, {"m", {Kind::kUnsigned, 64}},
};

std::string describeType(ScalarType type) {
  return std::to_string(type.width) + (type.kind == Kind::kFloat ? "-bit float" : "-bit integer");
}

// The operators of reduce and the scans, with the instruction for each kind of operand (OpNop: the
// operator has no form for that kind).
struct GroupOperator {
  std::string_view name;
  spv::Op signedOp, unsignedOp, floatOp;
  // Takes and returns int predicates; the instruction works on bool.
  bool logical = false;

  spv::Op opcodeFor(Kind kind) const {
    return kind == Kind::kSigned ? signedOp : kind == Kind::kUnsigned ? unsignedOp : floatOp;
  }
};

constexpr GroupOperator kOperators[] = {
    {"add", spv::Op::OpGroupIAdd, spv::Op::OpGroupIAdd, spv::Op::OpGroupFAdd},
    {"min", spv::Op::OpGroupSMin, spv::Op::OpGroupUMin, spv::Op::OpGroupFMin},
    {"max", spv::Op::OpGroupSMax, spv::Op::OpGroupUMax, spv::Op::OpGroupFMax},
    {"mul", spv::Op::OpGroupIMulKHR, spv::Op::OpGroupIMulKHR, spv::Op::OpGroupFMulKHR},
    {"and", spv::Op::OpGroupBitwiseAndKHR, spv::Op::OpGroupBitwiseAndKHR, spv::Op::OpNop},
    {"or", spv::Op::OpGroupBitwiseOrKHR, spv::Op::OpGroupBitwiseOrKHR, spv::Op::OpNop},
    {"xor", spv::Op::OpGroupBitwiseXorKHR, spv::Op::OpGroupBitwiseXorKHR, spv::Op::OpNop},
    {"logical_and", spv::Op::OpGroupLogicalAndKHR, spv::Op::OpGroupLogicalAndKHR, spv::Op::OpNop, true},
    {"logical_or", spv::Op::OpGroupLogicalOrKHR, spv::Op::OpGroupLogicalOrKHR, spv::Op::OpNop, true},
    {"logical_xor", spv::Op::OpGroupLogicalXorKHR, spv::Op::OpGroupLogicalXorKHR, spv::Op::OpNop, true},
};

constexpr std::pair<std::string_view, spv::GroupOperation> kGroupOperations[] = {
    {"reduce_", spv::GroupOperation::Reduce},
    {"scan_inclusive_", spv::GroupOperation::InclusiveScan},
    {"scan_exclusive_", spv::GroupOperation::ExclusiveScan},
};

// What a collective builtin's mangled name says.
struct Collective {
  enum class Function { kAll, kAny, kBroadcast, kReduceOrScan };
  spv::Scope scope = spv::Scope::Workgroup;
  Function function = Function::kReduceOrScan;
  spv::GroupOperation operation = spv::GroupOperation::Reduce;  // reduce and scans
  const GroupOperator* op = nullptr;                            // reduce and scans
  std::vector<ScalarType> parameters;
};

using CollectiveFunction = Collective::Function;

// The parameter types mangled after the name ("ij" in _Z..._foo_ij); an error for a code that is
// not an OpenCL C scalar (vectors, pointers, substitutions).
Expected<std::vector<ScalarType>> parameterTypes(std::string_view codes) {
  std::vector<ScalarType> types;
  while (!codes.empty()) {
    bool known = false;
    for (const auto& [code, type] : kTypeCodes) {
      if (!codes.starts_with(code)) continue;
      types.push_back(type);
      codes.remove_prefix(code.size());
      known = true;
      break;
    }
    if (!known) return Error("unknown parameter type code '" + std::string(codes) + "'");
  }
  return types;
}

// Decodes a collective builtin's name: its scope, function, operator and parameter types.
Expected<Collective> decodeName(std::string_view name) {
  Collective c;
  std::string_view baseName = ir::demangledBaseName(name);
  if (baseName.size() == name.size()) return Error("the name is not mangled, so its parameter types are unknown");
  Expected<std::vector<ScalarType>> parameters =
      parameterTypes(name.substr(static_cast<size_t>(baseName.data() - name.data()) + baseName.size()));
  if (!parameters) return parameters.error();
  c.parameters = std::move(*parameters);

  std::string_view rest = baseName;
  if (rest.starts_with("work_group_")) {
    rest.remove_prefix(std::string_view("work_group_").size());
  } else {
    c.scope = spv::Scope::Subgroup;
    rest.remove_prefix(std::string_view("sub_group_").size());
  }
  std::string base(baseName);
  auto takesOne = [&]() -> Status {
    if (c.parameters.size() != 1)
      return Error(base + " takes 1 argument, the name has " + std::to_string(c.parameters.size()));
    return okStatus();
  };

  if (rest == "all" || rest == "any") {
    c.function = rest == "all" ? CollectiveFunction::kAll : CollectiveFunction::kAny;
    CL2VK_TRY(takesOne());
    if (c.parameters[0].kind == Kind::kFloat) return Error(base + " takes an int predicate, not a float");
    return c;
  }
  if (rest == "broadcast") {
    c.function = CollectiveFunction::kBroadcast;
    size_t maxIds = c.scope == spv::Scope::Workgroup ? 3 : 1;
    size_t ids = c.parameters.empty() ? 0 : c.parameters.size() - 1;
    if (ids < 1 || ids > maxIds)
      return Error(base + " takes a value and " + (maxIds == 1 ? "1 local id" : "1 to 3 local ids") +
                   ", the name has " + std::to_string(ids) + " local ids");
    for (size_t i = 1; i < c.parameters.size(); ++i) {
      if (c.parameters[i].kind == Kind::kFloat) return Error(base + " takes integer local ids, not a float");
      if (c.parameters[i].width != c.parameters[1].width) return Error(base + ": its local ids have different types");
    }
    return c;
  }
  for (const auto& [prefix, operation] : kGroupOperations) {
    if (!rest.starts_with(prefix)) continue;
    std::string_view opName = rest.substr(prefix.size());
    for (const GroupOperator& op : kOperators) {
      if (op.name == opName) c.op = &op;
    }
    if (!c.op) return Error("no group operator '" + std::string(opName) + "'");
    c.operation = operation;
    CL2VK_TRY(takesOne());
    if (c.op->opcodeFor(c.parameters[0].kind) == spv::Op::OpNop)
      return Error(base + " has no " + describeType(c.parameters[0]) + " form");
    return c;
  }
  return Error("no collective '" + std::string(rest) + "'");
}

bool hasType(const Module& module, uint32_t typeId, ScalarType type) {
  const Instruction* def = module.def(typeId);
  spv::Op opcode = type.kind == Kind::kFloat ? spv::Op::OpTypeFloat : spv::Op::OpTypeInt;
  return def && def->opcode() == opcode && def->wordOperand(0) == type.width;
}

// Whether the call passes and returns what the name says.
Status checkCall(const Module& module, const Instruction& call, const Collective& c) {
  size_t arguments = call.numOperands() - 1;
  if (arguments != c.parameters.size())
    return Error("the call passes " + std::to_string(arguments) + " arguments, the name has " +
                 std::to_string(c.parameters.size()));
  for (size_t i = 0; i < arguments; ++i) {
    const Instruction* argument = module.def(call.idOperand(i + 1));
    if (!argument || !hasType(module, argument->typeId(), c.parameters[i]))
      return Error("argument " + std::to_string(i + 1) + " is not a " + describeType(c.parameters[i]));
  }
  if (!hasType(module, call.typeId(), c.parameters[0]))
    return Error("the result is not a " + describeType(c.parameters[0]));
  return okStatus();
}

// The callee's linkage name when `inst` calls an imported collective builtin, else nothing.
std::optional<std::string> collectiveCallee(const Module& module, const Instruction& inst) {
  if (inst.opcode() != spv::Op::OpFunctionCall) return std::nullopt;
  const ir::Function* callee = module.function(inst.idOperand(0));
  if (!callee || !callee->isDeclaration()) return std::nullopt;
  std::string name = ir::linkageName(module, callee->id());
  if (!ir::isCollectiveBuiltinName(name)) return std::nullopt;
  return name;
}

// Decodes the call's builtin; an error names the kernel, the call and the name.
Expected<Collective> recognise(const Module& module, const Instruction& call, const std::string& name) {
  Expected<Collective> collective = decodeName(name);
  Status checked = collective ? checkCall(module, call, *collective) : Status(collective.error());
  if (checked) return collective;
  return ir::refuse(module, call,
                    "'" + name + "' is not a collective builtin cl2vk recognises: " + checked.error().message());
}

// Declares what a group instruction needs: the SPV_KHR_uniform_group_instructions ones their own
// capability and extension, the OpenCL 2.0 ones Groups.
void requireFor(Module& module, spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpGroupIMulKHR:
    case spv::Op::OpGroupFMulKHR:
    case spv::Op::OpGroupBitwiseAndKHR:
    case spv::Op::OpGroupBitwiseOrKHR:
    case spv::Op::OpGroupBitwiseXorKHR:
    case spv::Op::OpGroupLogicalAndKHR:
    case spv::Op::OpGroupLogicalOrKHR:
    case spv::Op::OpGroupLogicalXorKHR:
      ir::requireCapability(module, spv::Capability::GroupUniformArithmeticKHR);
      ir::requireExtension(module, "SPV_KHR_uniform_group_instructions");
      return;
    default: ir::requireCapability(module, spv::Capability::Groups);
  }
}

// OpenCL's int predicate as a bool: non-zero is true.
uint32_t toBool(Module& module, Builder& b, uint32_t predicate, uint32_t intType) {
  return b.valueOfIds(spv::Op::OpINotEqual, ir::typeBool(module), {predicate, ir::constantBits(module, intType, 0)});
}

// A bool as OpenCL's int result: 1 or 0.
uint32_t fromBool(Module& module, Builder& b, uint32_t value, uint32_t intType) {
  return b.valueOfIds(spv::Op::OpSelect, intType,
                      {value, ir::constantBits(module, intType, 1), ir::constantBits(module, intType, 0)});
}

// The broadcast's local id: the one id, or a vector of the 2 or 3 ids.
uint32_t localId(Module& module, Builder& b, const Instruction& call) {
  std::vector<uint32_t> ids;
  for (size_t i = 2; i < call.numOperands(); ++i) ids.push_back(call.idOperand(i));
  if (ids.size() == 1) return ids[0];
  uint32_t component = module.def(ids[0])->typeId();
  return b.valueOfIds(spv::Op::OpCompositeConstruct,
                      ir::typeVector(module, component, static_cast<uint32_t>(ids.size())), ids);
}

// Replaces the call with the instruction it stands for.
Status resolve(Module& module, Instruction& call, const Collective& c) {
  Builder b = Builder::before(module, &call);
  uint32_t scope = ir::constantUint(module, 32, static_cast<uint32_t>(c.scope));
  uint32_t type = call.typeId();
  uint32_t value = call.idOperand(1);
  spv::Op opcode = spv::Op::OpNop;
  uint32_t result = 0;
  switch (c.function) {
    case CollectiveFunction::kAll:
    case CollectiveFunction::kAny: {
      opcode = c.function == CollectiveFunction::kAll ? spv::Op::OpGroupAll : spv::Op::OpGroupAny;
      uint32_t vote = b.valueOfIds(opcode, ir::typeBool(module), {scope, toBool(module, b, value, type)});
      result = fromBool(module, b, vote, type);
      break;
    }
    case CollectiveFunction::kBroadcast:
      opcode = spv::Op::OpGroupBroadcast;
      result = b.valueOfIds(opcode, type, {scope, value, localId(module, b, call)});
      break;
    case CollectiveFunction::kReduceOrScan: {
      opcode = c.op->opcodeFor(c.parameters[0].kind);
      Operand operation = Operand::enumerant(SPV_OPERAND_TYPE_GROUP_OPERATION, static_cast<uint32_t>(c.operation));
      if (c.op->logical) {
        uint32_t combined = b.value(opcode, ir::typeBool(module),
                                    {Operand::id(scope), operation, Operand::id(toBool(module, b, value, type))});
        result = fromBool(module, b, combined, type);
      } else {
        result = b.value(opcode, type, {Operand::id(scope), operation, Operand::id(value)});
      }
      break;
    }
  }
  requireFor(module, opcode);
  module.replaceAllUses(call.resultId(), result);
  return module.remove(&call);
}

}  // namespace

Expected<PassResult> resolveBuiltinCalls(Module& module, const Target&) {
  auto isCollectiveCall = [&module](const Instruction& inst) { return collectiveCallee(module, inst).has_value(); };

  // Every call is decoded before any changes, so that an unrecognised one leaves the module as it was.
  Expected<PassResult> checked =
      lowerInstructions(module, isCollectiveCall, [](Module& m, Instruction& call) -> Expected<bool> {
        CL2VK_TRY(recognise(m, call, *collectiveCallee(m, call)));
        return false;
      });
  if (!checked) return checked.error();

  std::set<uint32_t> declarations;
  Expected<PassResult> resolved =
      lowerInstructions(module, isCollectiveCall, [&declarations](Module& m, Instruction& call) -> Expected<bool> {
        Expected<Collective> collective = recognise(m, call, *collectiveCallee(m, call));
        if (!collective) return collective.error();
        declarations.insert(call.idOperand(0));
        CL2VK_TRY(resolve(m, call, *collective));
        return true;
      });
  if (!resolved) return resolved;

  for (uint32_t id : declarations) {
    if (!module.isUsed(id)) CL2VK_TRY(module.removeFunction(module.function(id)));
  }
  return resolved;
}

}  // namespace cl2vk
