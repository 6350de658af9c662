// lower-collectives in Workgroup memory alone (no subgroup arithmetic for the type): each invocation
// stores its value, then a tree reduce, a Hillis-Steele scan or a broadcast through memory, over
// the work-group or one subgroup's slice.
#include "passes/collectives/collective_lowering.h"

namespace cl2vk::collectives {

CollectiveLowering::Slice CollectiveLowering::workgroupSlice() {
  return Slice{kWorkgroup, constant32(0), builtin(spv::BuiltIn::LocalInvocationIndex), localInvocations()};
}

CollectiveLowering::Slice CollectiveLowering::subgroupSlice() {
  uint32_t first =
      at().valueOfIds(spv::Op::OpIMul, uint_, {builtin(spv::BuiltIn::SubgroupId), builtin(spv::BuiltIn::SubgroupSize)});
  return Slice{kSubgroup, first, builtin(spv::BuiltIn::SubgroupLocalInvocationId), activeLanes()};
}

uint32_t CollectiveLowering::element(const Slice& slice, uint32_t position) {
  return at().valueOfIds(spv::Op::OpIAdd, uint_, {slice.first, position});
}

uint32_t CollectiveLowering::treeReduce(const Slice& slice, const Collective& c, uint32_t type, uint32_t x) {
  uint32_t values = invocationScratch();
  uint32_t mine = element(slice, slice.position);
  store(values, type, mine, x);
  barrier(slice.scope);
  at().forEachStride(slice.size, [&](uint32_t stride) {
    uint32_t span = at().twice(stride);
    uint32_t aligned =
        at().valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_),
                        {at().valueOfIds(spv::Op::OpUMod, uint_, {slice.position, span}), constant32(0)});
    uint32_t partner = at().valueOfIds(spv::Op::OpIAdd, uint_, {slice.position, stride});
    uint32_t inside = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {partner, slice.size});
    at().ifThen(at().valueOfIds(spv::Op::OpLogicalAnd, ir::typeBool(module_), {aligned, inside}), [&] {
      uint32_t joined = combine(c.combine, type, load(values, type, mine), load(values, type, element(slice, partner)));
      store(values, type, mine, joined);
    });
    barrier(slice.scope);
  });
  uint32_t total = load(values, type, slice.first);
  barrier(slice.scope);
  return total;
}

uint32_t CollectiveLowering::hillisSteeleScan(const Slice& slice, const Collective& c, uint32_t type, uint32_t x,
                                              bool inclusive) {
  uint32_t values = invocationScratch();
  uint32_t mine = element(slice, slice.position);
  store(values, type, mine, x);
  barrier(slice.scope);
  // Whether there is a position `distance` before this one, and its value (this one's if none).
  auto before = [&](uint32_t distance) {
    uint32_t has = at().valueOfIds(spv::Op::OpUGreaterThanEqual, ir::typeBool(module_), {slice.position, distance});
    uint32_t from = at().valueOfIds(spv::Op::OpSelect, uint_,
                                    {has, at().valueOfIds(spv::Op::OpISub, uint_, {mine, distance}), mine});
    return std::pair{has, load(values, type, from)};
  };
  // for (stride = 1; stride < size; stride *= 2), carrying this position's running value.
  uint32_t scanned = at().loop(
      constant32(1), slice.size, [&](uint32_t i) { return at().twice(i); }, type, x,
      [&](uint32_t running, uint32_t stride) {
        auto [has, earlier] = before(stride);
        uint32_t joined = combine(c.combine, type, earlier, running);
        uint32_t next = at().valueOfIds(spv::Op::OpSelect, type, {has, joined, running});
        barrier(slice.scope);
        store(values, type, mine, next);
        barrier(slice.scope);
        return next;
      });
  if (inclusive) return scanned;
  auto [has, previous] = before(constant32(1));
  uint32_t exclusive = at().valueOfIds(spv::Op::OpSelect, type, {has, previous, identity(c.combine, type)});
  barrier(slice.scope);
  return exclusive;
}

uint32_t CollectiveLowering::sliceBroadcast(const Slice& slice, uint32_t type, uint32_t value, uint32_t lane) {
  if (ir::scalarWidth(module_, module_.def(lane)->typeId()) != 32)
    lane = at().valueOfIds(spv::Op::OpUConvert, uint_, {lane});
  uint32_t values = invocationScratch();
  store(values, type, element(slice, slice.position), value);
  barrier(slice.scope);
  // A lane past the last one is undefined in OpenCL; it reads lane 0 rather than past the array.
  uint32_t present = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {lane, slice.size});
  lane = at().valueOfIds(spv::Op::OpSelect, uint_, {present, lane, constant32(0)});
  uint32_t result = load(values, type, element(slice, lane));
  barrier(slice.scope);
  return result;
}

}  // namespace cl2vk::collectives
