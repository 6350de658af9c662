// What the runtime must know to dispatch a translated kernel: where each argument goes, which
// specialization constants size the work-group and the __local arguments, and what the module
// needs from the device. The translator fills it; cl2vk-opt --reflect writes it as JSON.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cl2vk {

enum class ArgumentKind {
  kGlobalPointer,    // __global T*: a 64-bit device address
  kConstantPointer,  // __constant T*: a 64-bit device address, read-only
  kLocalPointer,     // __local T*: no data; its size sets a specialization constant
  kValue,            // scalars, vectors and structs passed by value
  kImage,            // an image: its 48-byte record (docs/images.md)
  kSampler,          // a sampler: its 4 bytes of OpenCL C sampler bits
};

const char* argumentKindName(ArgumentKind kind);

struct KernelArgument {
  std::string name;  // from OpName (clang -cl-kernel-arg-info), else "arg<N>"
  ArgumentKind kind = ArgumentKind::kValue;
  // The argument's type as the SPIR-V has it ("f32", "v4i8", "struct{f32,i32}", and for pointers
  // the pointee): Kernel SPIR-V does not keep OpenCL's signedness or typedef names.
  std::string type;
  std::string addressSpace;  // "global", "constant", "local", or "private" for values
  uint32_t offset = 0;       // bytes into the argument block (push constants or argument buffer)
  uint32_t size = 0;         // bytes in the argument block (8 for pointers, 0 for __local)
  bool readOnly = false;     // __constant, or a pointer the kernel never writes through
  // For kImage: "read_only", "write_only" or "read_write" (`type` is the OpenCL type, "image2d_t"),
  // and the specialization constants of its channel order and, at the next two ids, its channel
  // type and whether its offsets are narrow (SpecIds::kFirstImageFormat).
  std::string access;
  uint32_t formatSpecId = 0;
  // For kLocalPointer: the specialization constant holding the number of elements, and the
  // element size the runtime divides the clSetKernelArg byte size by (rounding up).
  uint32_t localSpecId = 0;
  uint32_t localElementSize = 0;
};

// The push-constant block starts with the dispatch information when the kernel uses it.
// Layout (all uint32): global_offset[3], work_dim, global_size[3], pad, group_offset[3], pad.
struct DispatchInfoLayout {
  static constexpr uint32_t kGlobalOffset = 0;
  static constexpr uint32_t kWorkDim = 12;
  static constexpr uint32_t kGlobalSize = 16;
  static constexpr uint32_t kGroupOffset = 32;
  static constexpr uint32_t kSize = 48;
  // A kernel with free work-groups (KernelReflection::freeWorkGroups) has 16 more bytes: the
  // OpenCL local size it was enqueued with (three uint32), then padding.
  static constexpr uint32_t kEnqueuedLocalSize = 48;
  static constexpr uint32_t kFreeSize = 64;
};

// An image argument's 48 bytes (docs/images.md, "The image argument"), 16-aligned.
struct ImageRecordLayout {
  static constexpr uint32_t kData = 0;           // uint64: the device address of texel (0, 0, 0)
  static constexpr uint32_t kSlicePitch = 8;     // uint64
  static constexpr uint32_t kSize = 16;          // uint32 width, height, depth, layers
  static constexpr uint32_t kRowPitch = 32;      // uint32
  static constexpr uint32_t kChannelOrder = 36;  // uint32 cl_channel_order
  static constexpr uint32_t kChannelType = 40;   // uint32 cl_channel_type
  // uint32: 1 where every texel's byte offset from texel (0, 0, 0) is below 2^32, so that the
  // kernel forms texel addresses from 32-bit offsets; 0 where it must use 64-bit ones.
  static constexpr uint32_t kNarrowOffsets = 44;
  static constexpr uint32_t kBytes = 48;
};

// What lower-collectives did to one kernel (cl2vk-opt --stats).
struct CollectiveStats {
  uint32_t collectives = 0;   // OpGroup* instructions rewritten
  uint32_t barriers = 0;      // work-group barriers added (in the code, not as executed)
  uint32_t scratchBytes = 0;  // Workgroup memory added
};

struct KernelReflection {
  std::string name;
  std::vector<KernelArgument> arguments;
  bool usesDispatchInfo = false;  // at offset 0 of the push constants
  // Translated for free work-groups (Target::freeWorkGroups): the pipeline's work-group size is
  // the hardware's, (n, 1, 1) with n of the runtime's choosing, dispatched over the global range
  // rounded up to n in x (the invocations past it return at once); the OpenCL local size is read
  // from DispatchInfoLayout::kEnqueuedLocalSize, and the group offsets count hardware work-groups.
  bool freeWorkGroups = false;
  // Where the arguments live: in the push constants from `argumentsOffset`, or, when they do
  // not fit, in a buffer whose 64-bit address is at `argumentsOffset` in the push constants.
  bool argumentBuffer = false;
  uint32_t argumentsOffset = 0;
  uint32_t argumentsSize = 0;
  uint32_t pushConstantSize = 0;
  // reqd_work_group_size, when the kernel declares it.
  std::optional<std::array<uint32_t, 3>> requiredWorkGroupSize;
  // intel_reqd_sub_group_size (SPIR-V's SubgroupSize execution mode), when the kernel declares it:
  // its pipelines require that subgroup size (VK_EXT_subgroup_size_control).
  std::optional<uint32_t> requiredSubgroupSize;
  CollectiveStats collectives;
  // Bytes of Workgroup memory of a fixed size: the kernel's own __local variables and the
  // collectives' scratch; the __local arguments come on top (CL_KERNEL_LOCAL_MEM_SIZE).
  uint32_t workgroupBytes = 0;
  // Hidden arguments: where in the argument block (like KernelArgument::offset) the runtime writes
  // the 64-bit address of the printf buffer, when the kernel calls printf, and of the program's
  // global variables, when the kernel uses one.
  std::optional<uint32_t> printfBufferOffset;
  std::optional<uint32_t> globalVariablesOffset;
  // ... and of a word the kernel sets to 1 when a loop would have run past the device's loop limit
  // (Target::loopIterationLimit; limit-loop-iterations).
  std::optional<uint32_t> loopLimitFlagOffset;
  // ... and of the private scratch buffer's address (Target::privateMemoryBudget;
  // move-private-arrays): each invocation of a dispatch uses `privateScratchStride` bytes of the
  // buffer at its index in the dispatch (work-group index times the work-group's size, plus its
  // local index), so the buffer holds that many bytes for every invocation of the largest dispatch.
  std::optional<uint32_t> privateScratchOffset;
  uint32_t privateScratchStride = 0;
};

// The program-scope variables in __global memory (OpenCL C 2.0), which live in one buffer per
// program and device for the program's lifetime, shared by its kernels and kept across launches.
struct GlobalVariablesLayout {
  struct Variable {
    std::string name;  // from OpName, else "%<id>"
    uint32_t offset = 0, size = 0;
  };
  // A pointer among the initial values: at `offset`, the buffer's address plus `addend`.
  struct Pointer {
    uint32_t offset = 0;
    uint64_t addend = 0;
  };
  // Bytes the initializers set from `offset`: the constants of consecutive members and elements
  // make one run.
  struct InitialBytes {
    uint32_t offset = 0;
    std::vector<uint8_t> bytes;
  };
  uint32_t size = 0;                       // bytes; 0 when the program has none
  std::vector<Variable> variables;         // in offset order
  std::vector<InitialBytes> initialBytes;  // in offset order; every other byte starts zero
  std::vector<Pointer> pointers;

  // All `size` initial bytes, zeros where no initializer sets one. Only the runs are kept, since a
  // large array without an initializer (gigabytes) would otherwise be as large in memory.
  std::vector<uint8_t> allInitialBytes() const;
};

// One argument of a printf call as its record holds it (docs/kernel-interface.md, "printf"): each
// component is one 32-bit word, or two (low first) when it is 64 bits wide.
struct PrintfArgument {
  enum class Kind { kInt, kFloat, kPointer, kString };
  Kind kind = Kind::kInt;
  uint32_t components = 1;  // > 1 for a vector
  uint32_t bits = 32;       // the component's width in the kernel; 8 and 16-bit ones travel as 32
  std::string text;         // kString: the constant string itself, which takes no words
  uint32_t words() const { return kind == Kind::kString ? 0 : components * (bits == 64 ? 2 : 1); }
};

const char* printfArgumentKindName(PrintfArgument::Kind kind);

// A printf call site: the format string and the arguments after it.
struct PrintfFormat {
  std::string format;
  std::vector<PrintfArgument> arguments;
};

// The printf buffer: a header of two words (the words reserved so far, the words there are room
// for), then the records, each the format's index and its arguments' words.
struct PrintfBufferLayout {
  static constexpr uint32_t kUsedWords = 0;      // word index, atomically advanced by each printf
  static constexpr uint32_t kCapacityWords = 1;  // word index, written by the runtime
  static constexpr uint32_t kFirstRecordWord = 2;
};

// Specialization constants shared by every kernel of a translated module.
struct SpecIds {
  static constexpr uint32_t kWorkGroupSize = 0;          // x, y, z: 0, 1, 2
  static constexpr uint32_t kEnqueuedWorkGroupSize = 3;  // x, y, z: 3, 4, 5
  // A bool: whether this dispatch's subgroups hold consecutive linear local ids (the runtime knows
  // the work-group shape); work-group collectives take their subgroup path only then.
  static constexpr uint32_t kLinearSubgroups = 6;
  static constexpr uint32_t kFirstLocalArgument = 7;
  // An image argument's channel order, channel type and narrow-offsets flag (docs/images.md), three
  // ids per image from here in argument order, so that the driver compiles its texel code for the
  // one format it reads and with 32-bit offsets where they suffice: 0, the default, leaves them to
  // the image record; the flag is 1 (narrow) or 2 (64-bit) when set.
  static constexpr uint32_t kFirstImageFormat = 0x10000;
  static constexpr uint32_t kImageSpecIds = 3;  // ids per image argument
};

// What a translated module needs from the Vulkan device.
struct ModuleRequirements {
  bool int8 = false, int16 = false, int64 = false;
  bool float16 = false, float64 = false;
  bool storageBuffer8BitAccess = false, storageBuffer16BitAccess = false;
  bool int64Atomics = false;
  bool subgroupBasic = false, subgroupVote = false, subgroupArithmetic = false, subgroupBallot = false;
  bool subgroupShuffle = false, subgroupShuffleRelative = false;
  std::vector<std::string> capabilities;  // every OpCapability of the module, by name
  std::vector<std::string> extensions;
};

struct ModuleReflection {
  std::vector<KernelReflection> kernels;
  ModuleRequirements requirements;
  std::vector<PrintfFormat> printfFormats;  // indexed by the first word of a printf record
  GlobalVariablesLayout globalVariables;

  KernelReflection* kernel(const std::string& name);
};

std::string toJson(const ModuleReflection& reflection);

}  // namespace cl2vk
