// Vector loads and stores (vloadn, vstoren and the half forms), shuffles, prefetch and printf.
// The loads and stores become one OpInBoundsPtrAccessChain and one scalar OpLoad or OpStore per
// component, on the pointer's own type and storage class, so that the same code serves global,
// local, private, constant and generic memory; the pointer lowering later turns the pointers into
// Vulkan ones. Half values are converted through their bits (exact, denormals kept, every
// rounding mode) rather than through OpFConvert, whose rounding Vulkan leaves open.
#include <spirv/unified1/OpenCL.std.h>

#include "ir/types.h"
#include "passes/instructions/opencl_std_float_bits.h"
#include "passes/instructions/opencl_std_lowerings.h"

namespace cl2vk {
namespace {

using Lowered = Expected<uint32_t>;

// Component `index` of the vector that starts at element `offset * stride` of `pointer`.
uint32_t elementPointer(ir::Builder& e, uint32_t pointer, uint32_t offset, uint32_t stride, uint32_t index) {
  uint32_t indexType = e.typeOf(offset);
  uint32_t element = e.iadd(e.imul(offset, e.bits(indexType, stride)), e.bits(indexType, index));
  return e.op(spv::Op::OpInBoundsPtrAccessChain, e.typeOf(pointer), {pointer, element});
}

uint32_t pointeeType(ir::Builder& e, uint32_t pointer) { return e.module().def(e.typeOf(pointer))->idOperand(1); }

// vloada_halfn and vstorea_halfn step by 4 elements for 3-component vectors.
uint32_t alignedStride(uint32_t count) { return count == 3 ? 4 : count; }

std::vector<uint32_t> loadElements(ir::Builder& e, uint32_t pointer, uint32_t offset, uint32_t stride, uint32_t count) {
  uint32_t element = pointeeType(e, pointer);
  std::vector<uint32_t> values;
  for (uint32_t i = 0; i < count; ++i)
    values.push_back(e.load(element, elementPointer(e, pointer, offset, stride, i), e.width(element) / 8));
  return values;
}

void storeElements(ir::Builder& e, uint32_t data, uint32_t pointer, uint32_t offset, uint32_t stride) {
  uint32_t dataType = e.typeOf(data);
  uint32_t count = e.componentCount(dataType);
  uint32_t element = pointeeType(e, pointer);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t value = e.isVector(dataType) ? e.extract(element, data, i) : data;
    e.store(elementPointer(e, pointer, offset, stride, i), value, e.width(element) / 8);
  }
}

uint32_t gather(ir::Builder& e, uint32_t type, const std::vector<uint32_t>& components) {
  return components.size() == 1 ? components[0] : e.op(spv::Op::OpCompositeConstruct, type, components);
}

Lowered lowerVloadn(ir::Builder& e, const ExtCall& c) {
  uint32_t count = c.args[2];
  return gather(e, c.type, loadElements(e, c.args[1], c.args[0], count, count));
}

Lowered lowerVstoren(ir::Builder& e, const ExtCall& c) {
  storeElements(e, c.args[0], c.args[2], c.args[1], e.componentCount(e.typeOf(c.args[0])));
  return 0;
}

// The half elements as the float result type, through their bits.
Lowered loadHalves(ir::Builder& e, const ExtCall& c, uint32_t stride, uint32_t count) {
  std::vector<uint32_t> halves = loadElements(e, c.args[1], c.args[0], stride, count);
  e.requireCapability(spv::Capability::Int16);  // the halves' bits are 16-bit integers
  uint32_t bitsType = ir::typeInt(e.module(), 16);
  std::vector<uint32_t> bits;
  for (uint32_t half : halves) bits.push_back(e.bitcast(bitsType, half));
  uint32_t bitsVector = gather(e, e.uintType(c.type, 16), bits);
  return halfBitsToFloat(e, bitsVector, c.type);
}

Lowered lowerVloadHalf(ir::Builder& e, const ExtCall& c) { return loadHalves(e, c, 1, 1); }
Lowered lowerVloadHalfn(ir::Builder& e, const ExtCall& c) { return loadHalves(e, c, c.args[2], c.args[2]); }
Lowered lowerVloadaHalfn(ir::Builder& e, const ExtCall& c) {
  return loadHalves(e, c, alignedStride(c.args[2]), c.args[2]);
}

// Rounds the float data to half with `mode` and stores the halves.
Lowered storeHalves(ir::Builder& e, const ExtCall& c, Rounding mode, bool aligned) {
  uint32_t data = c.args[0];
  uint32_t count = e.componentCount(e.typeOf(data));
  uint32_t half = pointeeType(e, c.args[2]);
  e.requireCapability(spv::Capability::Int16);
  uint32_t bits = e.resize(narrowFloatBits(e, data, 16, mode), 16);
  uint32_t halves = e.bitcast(e.shaped(e.typeOf(data), half), bits);
  storeElements(e, halves, c.args[2], c.args[1], aligned ? alignedStride(count) : count);
  return 0;
}

Lowered lowerVstoreHalf(ir::Builder& e, const ExtCall& c) { return storeHalves(e, c, Rounding::kNearestEven, false); }
Lowered lowerVstoreHalfR(ir::Builder& e, const ExtCall& c) {
  return storeHalves(e, c, roundingFromSpirv(c.args[3]), false);
}
Lowered lowerVstoreaHalf(ir::Builder& e, const ExtCall& c) { return storeHalves(e, c, Rounding::kNearestEven, true); }
Lowered lowerVstoreaHalfR(ir::Builder& e, const ExtCall& c) {
  return storeHalves(e, c, roundingFromSpirv(c.args[3]), true);
}

// Component i of the result is component mask[i] of x (shuffle) or of x then y (shuffle2), the
// mask read modulo the number of candidates as OpenCL specifies.
Lowered lowerShuffle(ir::Builder& e, const ExtCall& c, bool twoInputs) {
  uint32_t x = c.args[0], y = twoInputs ? c.args[1] : 0, mask = c.args[twoInputs ? 2 : 1];
  uint32_t inputCount = e.componentCount(e.typeOf(x));
  uint32_t component = e.componentType(c.type);
  uint32_t maskComponent = e.componentType(e.typeOf(mask));
  std::vector<uint32_t> components;
  for (uint32_t i = 0; i < e.componentCount(c.type); ++i) {
    uint32_t selector = e.extract(maskComponent, mask, i);
    uint32_t index = e.bitAnd(selector, e.bits(maskComponent, inputCount - 1));
    uint32_t value = e.op(spv::Op::OpVectorExtractDynamic, component, {x, index});
    if (twoInputs) {
      uint32_t fromY = e.compare(spv::Op::OpINotEqual, e.bitAnd(selector, e.bits(maskComponent, inputCount)),
                                 e.bits(maskComponent, 0));
      value = e.select(fromY, e.op(spv::Op::OpVectorExtractDynamic, component, {y, index}), value);
    }
    components.push_back(value);
  }
  return gather(e, c.type, components);
}

Lowered lowerShuffle1(ir::Builder& e, const ExtCall& c) { return lowerShuffle(e, c, false); }
Lowered lowerShuffle2(ir::Builder& e, const ExtCall& c) { return lowerShuffle(e, c, true); }

Lowered lowerPrefetch(ir::Builder&, const ExtCall&) { return 0u; }  // a hint Vulkan has no use for

}  // namespace

const ExtTable& memoryLowerings() {
  using namespace OpenCLLIB;
  static const ExtTable table = {
      {Vloadn, {"vloadn", lowerVloadn}},
      {Vstoren, {"vstoren", lowerVstoren}},
      {Vload_half, {"vload_half", lowerVloadHalf}},
      {Vload_halfn, {"vload_halfn", lowerVloadHalfn}},
      {Vloada_halfn, {"vloada_halfn", lowerVloadaHalfn}},
      {Vstore_half, {"vstore_half", lowerVstoreHalf}},
      {Vstore_half_r, {"vstore_half_r", lowerVstoreHalfR}},
      {Vstore_halfn, {"vstore_halfn", lowerVstoreHalf}},
      {Vstore_halfn_r, {"vstore_halfn_r", lowerVstoreHalfR}},
      {Vstorea_halfn, {"vstorea_halfn", lowerVstoreaHalf}},
      {Vstorea_halfn_r, {"vstorea_halfn_r", lowerVstoreaHalfR}},
      {Shuffle, {"shuffle", lowerShuffle1}},
      {Shuffle2, {"shuffle2", lowerShuffle2}},
      {Prefetch, {"prefetch", lowerPrefetch}},
      {Printf, {"printf", nullptr}},
  };
  return table;
}

}  // namespace cl2vk
