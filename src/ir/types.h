// Get-or-create for types and constants: each returns the id of an existing equal definition, or
// adds one at the end of the global section. Equality is structural (opcode, type, operands);
// decorations are not considered, so a pass that needs a distinctly decorated type (an array with
// its own ArrayStride, say) creates it itself.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace cl2vk::ir {

uint32_t typeVoid(Module& module);
uint32_t typeBool(Module& module);
// Kernel modules have only signedness 0; Shader modules may use 1.
uint32_t typeInt(Module& module, uint32_t width, bool isSigned = false);
uint32_t typeFloat(Module& module, uint32_t width);
uint32_t typeVector(Module& module, uint32_t componentType, uint32_t count);
uint32_t typePointer(Module& module, spv::StorageClass storage, uint32_t pointee);
uint32_t typeFunction(Module& module, uint32_t returnType, const std::vector<uint32_t>& parameterTypes);

// A scalar integer or float constant given by its bit pattern (the low `width` bits are used).
uint32_t constantBits(Module& module, uint32_t type, uint64_t bits);
uint32_t constantUint(Module& module, uint32_t width, uint64_t value);
// A float constant of the type's width (16, 32 or 64), rounded to nearest even.
uint32_t constantFloat(Module& module, uint32_t type, double value);
uint32_t constantBool(Module& module, bool value);
uint32_t constantNull(Module& module, uint32_t type);
// An OpUndef of `type` in the global section: an existing one, else a new one. (OpUndef is not a
// shareable global, since an imported undef keeps its identity and decorations; any one will do here.)
uint32_t undef(Module& module, uint32_t type);
uint32_t constantComposite(Module& module, uint32_t type, const std::vector<uint32_t>& constituents);

// Whether a constant is undefined all through: OpUndef, or a composite of undefined parts (how
// llvm-spirv-15 writes LLVM's `undef` struct initializer of a kernel-scope __local variable).
bool isUndefined(const Module& module, uint32_t id);

// Whether `type` is an OpTypePointer; then its storage class and pointee type (for a pointer type only).
bool isPointerType(const Module& module, uint32_t type);
spv::StorageClass storageOf(const Module& module, uint32_t pointerType);
uint32_t pointeeOf(const Module& module, uint32_t pointerType);

// Whether `type` is a pointer type into PhysicalStorageBuffer memory (a buffer address).
bool isBufferPointer(const Module& module, uint32_t type);

// The width of an OpTypeInt or OpTypeFloat, or 0 for anything else.
uint32_t scalarWidth(const Module& module, uint32_t type);
// The width of an integer type or of a vector of integers (of a float type or vector of floats),
// or 0 for anything else: what a pass asks of a value's type whatever its shape.
uint32_t intWidth(const Module& module, uint32_t type);
uint32_t floatWidth(const Module& module, uint32_t type);
// Whether `type` is OpTypeBool or a vector of them; OpTypeVector.
bool isBoolType(const Module& module, uint32_t type);
bool isVectorType(const Module& module, uint32_t type);

// The result type of `value`, or 0 when it has none (or no definition).
uint32_t typeOf(const Module& module, uint32_t value);
// A vector type's component type; any other type itself.
uint32_t componentType(const Module& module, uint32_t type);
// A vector type's component count; 1 for any other type.
uint32_t componentCount(const Module& module, uint32_t type);

// IEEE binary16 bits of `value`, rounded to nearest even (overflow gives infinity).
uint16_t floatToHalfBits(double value);

}  // namespace cl2vk::ir
