// What lower-narrow-integers and widen-odd-integers share. Both give the integers of some widths a
// wider type (8/16-bit integers and halves 32 bits on a device without them; odd widths such as
// i4 the next standard width), and with them every type, constant and value that holds one: the
// types are rebuilt, the constants too, and a value the lowering made remembers the type it
// stands for, so that the next instruction knows which bits of it count. The lowering says which
// integers are widened (sourceWidth) and what scalars, vectors and pointers become
// (mapNonAggregate); this keeps the maps and rewrites the rest.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "ir/builder.h"
#include "passes/pass.h"

namespace cl2vk {

class IntegerWidening {
 public:
  virtual ~IntegerWidening() = default;

  // The width of the integers (or 16-bit floats) of scalar or vector `type` that the lowering
  // widens, else 0.
  virtual uint32_t sourceWidth(uint32_t type) const = 0;
  // Whether `type` holds such a value anywhere (members, elements, pointees, parameters).
  bool involves(uint32_t type);
  // The type values of `type` have after the lowering; `type` itself when not involved.
  uint32_t mapType(uint32_t type);
  // The type `value` had before the lowering (values it made remember theirs).
  uint32_t originalType(uint32_t value) const;
  // `value` as the lowering holds it: for an old constant, one of the widened type whose
  // integers keep the bits of their width zero-extended; anything else itself.
  uint32_t widened(uint32_t value);
  // Replaces `inst` by `value`, which stands for a value of `original` type, and removes it.
  Status finish(ir::Instruction& inst, uint32_t value, uint32_t original);
  // Rewrites `inst` in place with its type mapped and its operands widened.
  void retype(ir::Instruction& inst);

  ir::Module& module() { return module_; }

 protected:
  explicit IntegerWidening(ir::Module& module) : module_(module) {}

  // What an involved OpTypeInt, OpTypeFloat, OpTypeVector or OpTypePointer becomes (arrays,
  // structs and function types are rebuilt from their parts here).
  virtual uint32_t mapNonAggregate(const ir::Instruction& type) = 0;

  // Whether `inst` has a type, or an operand of a type before the lowering, that it involves;
  // ids made from here on are the lowering's own (finish).
  bool startInstruction(const ir::Instruction& inst);
  // An OpSwitch on a widened integer: on its widened selector, each case literal masked to the
  // selector's width.
  void widenSwitch(ir::Instruction& inst);
  // Removes the old types and constants nothing uses any more.
  Status removeUnusedOldTypes();

  ir::Module& module_;

 private:
  std::unordered_map<uint32_t, bool> involves_;
  std::unordered_map<uint32_t, uint32_t> mapped_;     // type -> type after the lowering
  std::unordered_map<uint32_t, uint32_t> constants_;  // old constant -> widened constant
  std::unordered_map<uint32_t, uint32_t> original_;   // value made by the lowering -> its old type
  uint32_t firstNewId_ = 0;  // ids from here on were made by the current instruction's lowering
};

}  // namespace cl2vk
