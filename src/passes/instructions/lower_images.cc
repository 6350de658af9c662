#include "passes/instructions/lower_images.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "ir/import.h"
#include "ir/types.h"
#include "passes/functions/builtin_library.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Operand;

// OpenCL's image types, by how the library addresses them.
enum class Geometry { k1d, k1dArray, k2d, k2dArray, k3d, kBuffer };

struct ImageType {
  Geometry geometry;
  std::string access;  // "read_only", "write_only" or "read_write"
};

const char* libraryName(Geometry geometry) {
  switch (geometry) {
    case Geometry::k1d: return "1d";
    case Geometry::k1dArray: return "1d_array";
    case Geometry::k2d: return "2d";
    case Geometry::k2dArray: return "2d_array";
    case Geometry::k3d: return "3d";
    case Geometry::kBuffer: return "buffer";
  }
  return "";
}

const char* openclName(Geometry geometry) {
  switch (geometry) {
    case Geometry::k1d: return "image1d_t";
    case Geometry::k1dArray: return "image1d_array_t";
    case Geometry::k2d: return "image2d_t";
    case Geometry::k2dArray: return "image2d_array_t";
    case Geometry::k3d: return "image3d_t";
    case Geometry::kBuffer: return "image1d_buffer_t";
  }
  return "";
}

// What OpImageQuerySize[Lod] returns: the record's size components, in order (0 width, 1 height,
// 2 depth, 3 layers).
std::vector<uint32_t> sizeComponents(Geometry geometry) {
  switch (geometry) {
    case Geometry::k1d:
    case Geometry::kBuffer: return {0};
    case Geometry::k1dArray: return {0, 3};
    case Geometry::k2d: return {0, 1};
    case Geometry::k2dArray: return {0, 1, 3};
    case Geometry::k3d: return {0, 1, 2};
  }
  return {};
}

// The record's members (docs/images.md, "The image argument").
enum RecordMember : uint32_t { kData = 0, kSlicePitch = 1, kSize = 2, kLayout = 3 };
// llvm-spirv adds these to OpImageQueryFormat and OpImageQueryOrder: SPIR-V numbers the channel
// types and orders from 0, OpenCL from CL_SNORM_INT8 and CL_R.
constexpr uint32_t kChannelTypeBase = 0x10D0;
constexpr uint32_t kChannelOrderBase = 0x10B0;

// OpenCL C's sampler bits (CLK_NORMALIZED_COORDS_TRUE, CLK_ADDRESS_*, CLK_FILTER_*) of
// OpConstantSampler's operands: SPIR-V's addressing modes count 0-4 where OpenCL C's step by 2.
uint32_t samplerBits(uint32_t addressing, uint32_t normalized, uint32_t filter) {
  return (normalized ? 1u : 0u) | (addressing << 1) | (filter == 0 ? 0x10u : 0x20u);
}

class ImageLowering {
 public:
  explicit ImageLowering(ir::Module& module) : module_(module) {}

  // The types and constants: images and samplers become their structs.
  Status retype() {
    uint32_t uint32 = ir::typeInt(module_, 32);
    uint32_t uint64 = ir::typeInt(module_, 64);
    uint32_t uint4 = ir::typeVector(module_, uint32, 4);
    std::vector<Instruction*> images, samplers, constants;
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() == spv::Op::OpTypeImage) images.push_back(&inst);
      if (inst.opcode() == spv::Op::OpTypeSampler) samplers.push_back(&inst);
      if (inst.opcode() == spv::Op::OpConstantSampler) constants.push_back(&inst);
    }
    for (Instruction* inst : images) {
      Expected<ImageType> type = imageType(*inst);
      if (!type) return type.error();
      module_.update(inst,
                     Instruction(spv::Op::OpTypeStruct, 0, inst->resultId(),
                                 {Operand::id(uint64), Operand::id(uint64), Operand::id(uint4), Operand::id(uint4)}));
      name(inst->resultId(), imageRecordName({openclName(type->geometry), type->access}));
      images_.emplace(inst->resultId(), *type);
    }
    for (Instruction* inst : samplers) {
      module_.update(inst, Instruction(spv::Op::OpTypeStruct, 0, inst->resultId(), {Operand::id(uint32)}));
      name(inst->resultId(), std::string(kSamplerRecordName));
    }
    for (Instruction* inst : constants) {
      uint32_t bits = samplerBits(inst->wordOperand(0), inst->wordOperand(1), inst->wordOperand(2));
      module_.update(inst, Instruction(spv::Op::OpConstantComposite, inst->typeId(), inst->resultId(),
                                       {Operand::id(ir::constantUint(module_, 32, bits))}));
    }
    module_.sortGlobals();
    return okStatus();
  }

  Expected<bool> lower(Instruction& inst) {
    switch (inst.opcode()) {
      case spv::Op::OpSampledImage: return false;  // read by its sampling instruction, removed after
      case spv::Op::OpImageRead: return read(inst);
      case spv::Op::OpImageWrite: return write(inst);
      case spv::Op::OpImageSampleExplicitLod: return sample(inst);
      case spv::Op::OpImageQuerySizeLod:
      case spv::Op::OpImageQuerySize: return querySize(inst);
      case spv::Op::OpImageQueryFormat: return queryField(inst, 2, kChannelTypeBase);
      case spv::Op::OpImageQueryOrder: return queryField(inst, 1, kChannelOrderBase);
      case spv::Op::OpImageQueryLevels: return refuse(inst, "mipmapped images (cl_khr_mipmap_image) are not supported");
      case spv::Op::OpImageQuerySamples:
        return refuse(inst, "multisampled images (cl_khr_gl_msaa_sharing) are not supported");
      default: return refuse(inst, "OpenCL does not use this image instruction, and cl2vk does not translate it");
    }
  }

  // The OpSampledImage instructions and types, once nothing reads them.
  Status removeSampledImages() {
    std::vector<Instruction*> dead;
    for (ir::Function& function : module_.functions()) {
      for (ir::Block& block : function.blocks()) {
        for (Instruction& inst : block.instructions()) {
          if (inst.opcode() == spv::Op::OpSampledImage) dead.push_back(&inst);
        }
      }
    }
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() == spv::Op::OpTypeSampledImage) dead.push_back(&inst);
    }
    return module_.removeAll(dead);
  }

 private:
  Expected<ImageType> imageType(const Instruction& inst) {
    auto dim = static_cast<spv::Dim>(inst.wordOperand(1));
    bool depth = inst.wordOperand(2) == 1, arrayed = inst.wordOperand(3) == 1, multisampled = inst.wordOperand(4) == 1;
    auto refused = [&](const std::string& why) { return Error(module_.describe(inst) + ": " + why); };
    if (depth) return refused("depth images (cl_khr_depth_images) are not supported");
    if (multisampled) return refused("multisampled images (cl_khr_gl_msaa_sharing) are not supported");
    ImageType type;
    switch (dim) {
      case spv::Dim::Dim1D: type.geometry = arrayed ? Geometry::k1dArray : Geometry::k1d; break;
      case spv::Dim::Dim2D: type.geometry = arrayed ? Geometry::k2dArray : Geometry::k2d; break;
      case spv::Dim::Dim3D: type.geometry = Geometry::k3d; break;
      case spv::Dim::Buffer: type.geometry = Geometry::kBuffer; break;
      default: return refused("an image of a dimensionality OpenCL does not have");
    }
    uint32_t access = inst.numOperands() > 7 ? inst.wordOperand(7) : 0;
    type.access = access == 1 ? "write_only" : access == 2 ? "read_write" : "read_only";
    return type;
  }

  void name(uint32_t id, const std::string& text) {
    module_.append(ir::Section::kDebug, Instruction(spv::Op::OpName, 0, 0, {Operand::id(id), Operand::string(text)}));
  }

  Expected<bool> refuse(const Instruction& inst, const std::string& why) const {
    return Error(module_.describe(inst) + ": " + why);
  }

  // The image type of the record `image`, or an error naming `inst`.
  Expected<ImageType> typeOfImage(const Instruction& inst, uint32_t image) const {
    auto it = images_.find(ir::typeOf(module_, image));
    if (it == images_.end()) return Error(module_.describe(inst) + ": its image operand is not an image");
    return it->second;
  }

  // `coordinate` (a scalar or a vector of up to 4 components) as a 4-component vector, the
  // missing components 0.
  uint32_t fourComponents(ir::Builder& b, uint32_t coordinate) {
    uint32_t type = b.typeOf(coordinate);
    uint32_t component = b.componentType(type);
    uint32_t count = b.componentCount(type);
    uint32_t vector4 = ir::typeVector(module_, component, 4);
    if (count == 4) return coordinate;
    uint32_t zero = ir::constantNull(module_, component);
    if (count == 1) return b.op(spv::Op::OpCompositeConstruct, vector4, {coordinate, zero, zero, zero});
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < count; ++i) parts.push_back(b.extract(component, coordinate, i));
    parts.resize(4, zero);
    return b.op(spv::Op::OpCompositeConstruct, vector4, parts);
  }

  // __cl2vk_image_<operation>_<geometry>(data, slice_pitch, size, layout, extra...).
  Expected<uint32_t> call(ir::Builder& b, const Instruction& inst, const std::string& operation, uint32_t image,
                          const std::vector<uint32_t>& extra, uint32_t resultType) {
    Expected<ImageType> type = typeOfImage(inst, image);
    if (!type) return type.error();
    std::string name = "__cl2vk_image_" + operation + "_" + libraryName(type->geometry);
    BuiltinFunction builtin = findBuiltin(name);
    if (!builtin.module) return Error(module_.describe(inst) + ": the builtin library lacks " + name);
    auto importer = importers_.try_emplace(builtin.module, module_, *builtin.module).first;
    Expected<uint32_t> function = importer->second.import(builtin.id);
    if (!function) return Error(module_.describe(inst) + ": " + function.error().message());
    uint32_t uint64 = ir::typeInt(module_, 64);
    uint32_t uint4 = ir::typeVector(module_, ir::typeInt(module_, 32), 4);
    std::vector<uint32_t> operands = {*function, b.extract(uint64, image, kData), b.extract(uint64, image, kSlicePitch),
                                      b.extract(uint4, image, kSize), b.extract(uint4, image, kLayout)};
    operands.insert(operands.end(), extra.begin(), extra.end());
    return b.op(spv::Op::OpFunctionCall, resultType, operands);
  }

  // A float4 or uint4 library result as `type` (half4 and other integer vectors converted).
  uint32_t texelResult(ir::Builder& b, uint32_t value, uint32_t type) {
    if (b.typeOf(value) == type) return value;
    if (b.isFloat(type)) return b.op(spv::Op::OpFConvert, type, {value});
    return b.bitcast(type, value);
  }

  Expected<bool> finish(Instruction& inst, Expected<uint32_t> result) {
    if (!result) return result.error();
    if (inst.resultId() != 0) module_.replaceAllUses(inst.resultId(), *result);
    CL2VK_TRY(module_.remove(&inst));
    return true;
  }

  // Which library result a texel of `type` comes from: "f" for floats, "i" for integers.
  Expected<std::string> texelKind(const Instruction& inst, uint32_t type) const {
    if (ir::componentCount(module_, type) != 4)
      return Error(module_.describe(inst) + ": a texel of other than 4 components");
    uint32_t component = ir::componentType(module_, type);
    if (ir::floatWidth(module_, component)) return std::string("f");
    uint32_t width = ir::scalarWidth(module_, component);
    if (width != 32)
      return Error(module_.describe(inst) + ": a texel of " + std::to_string(width) +
                   "-bit integers (read_imagei and read_imageui return 32-bit ones)");
    return std::string("i");
  }

  // Image operands other than a zero Lod mean mipmaps or offsets, which OpenCL images lack here.
  Status checkImageOperands(const Instruction& inst, size_t first) const {
    if (inst.numOperands() <= first) return okStatus();
    uint32_t mask = inst.wordOperand(first);
    constexpr uint32_t kLod = static_cast<uint32_t>(spv::ImageOperandsMask::Lod);
    constexpr uint32_t kExtend = static_cast<uint32_t>(spv::ImageOperandsMask::SignExtend) |
                                 static_cast<uint32_t>(spv::ImageOperandsMask::ZeroExtend);
    if ((mask & ~(kLod | kExtend)) != 0)
      return Error(module_.describe(inst) +
                   ": image operands other than Lod (mipmaps, gradients, offsets) are not supported");
    if (mask & kLod) {
      const Instruction* lod = module_.def(inst.idOperand(first + 1));
      bool zero = lod && (lod->opcode() == spv::Op::OpConstantNull ||
                          (lod->opcode() == spv::Op::OpConstant && lod->wordOperand(0) == 0));
      if (!zero)
        return Error(module_.describe(inst) +
                     ": a read at a level of detail other than 0 (mipmapped images, "
                     "cl_khr_mipmap_image) is not supported");
    }
    return okStatus();
  }

  Expected<bool> read(Instruction& inst) {
    CL2VK_TRY(checkImageOperands(inst, 2));
    Expected<std::string> kind = texelKind(inst, inst.typeId());
    if (!kind) return kind.error();
    ir::Builder b = ir::Builder::before(module_, &inst);
    uint32_t image = inst.idOperand(0);
    uint32_t coordinate = fourComponents(b, inst.idOperand(1));
    uint32_t resultType = libraryTexelType(*kind);
    Expected<uint32_t> result = call(b, inst, "read_" + *kind, image, {coordinate}, resultType);
    if (!result) return result.error();
    return finish(inst, texelResult(b, *result, inst.typeId()));
  }

  Expected<bool> sample(Instruction& inst) {
    CL2VK_TRY(checkImageOperands(inst, 2));
    Expected<std::string> kind = texelKind(inst, inst.typeId());
    if (!kind) return kind.error();
    const Instruction* sampled = module_.def(inst.idOperand(0));
    if (!sampled || sampled->opcode() != spv::Op::OpSampledImage)
      return refuse(inst, "its sampled image does not come from an OpSampledImage");
    ir::Builder b = ir::Builder::before(module_, &inst);
    uint32_t image = sampled->idOperand(0);
    uint32_t sampler = b.extract(ir::typeInt(module_, 32), sampled->idOperand(1), 0);
    uint32_t coordinate = fourComponents(b, inst.idOperand(1));
    // Integer coordinates with a sampler: sample_fi, sample_ii.
    std::string operation = "sample_" + *kind + (b.isFloat(b.typeOf(coordinate)) ? "" : "i");
    Expected<uint32_t> result = call(b, inst, operation, image, {sampler, coordinate}, libraryTexelType(*kind));
    if (!result) return result.error();
    return finish(inst, texelResult(b, *result, inst.typeId()));
  }

  Expected<bool> write(Instruction& inst) {
    CL2VK_TRY(checkImageOperands(inst, 3));
    uint32_t texel = inst.idOperand(2);
    ir::Builder b = ir::Builder::before(module_, &inst);
    Expected<std::string> kind = texelKind(inst, b.typeOf(texel));
    if (!kind) return kind.error();
    uint32_t value = texel;
    uint32_t libraryType = libraryTexelType(*kind);
    if (b.typeOf(value) != libraryType)
      value = *kind == "f" ? b.op(spv::Op::OpFConvert, libraryType, {value}) : b.bitcast(libraryType, value);
    uint32_t coordinate = fourComponents(b, inst.idOperand(1));
    Expected<uint32_t> result =
        call(b, inst, "write_" + *kind, inst.idOperand(0), {coordinate, value}, ir::typeVoid(module_));
    if (!result) return result.error();
    CL2VK_TRY(module_.remove(&inst));
    return true;
  }

  Expected<bool> querySize(Instruction& inst) {
    uint32_t image = inst.idOperand(0);
    Expected<ImageType> type = typeOfImage(inst, image);
    if (!type) return type.error();
    ir::Builder b = ir::Builder::before(module_, &inst);
    uint32_t uint32 = ir::typeInt(module_, 32);
    uint32_t size = b.extract(ir::typeVector(module_, uint32, 4), image, kSize);
    uint32_t component = b.componentType(inst.typeId());
    std::vector<uint32_t> parts;
    for (uint32_t index : sizeComponents(type->geometry))
      parts.push_back(b.resize(b.extract(uint32, size, index), b.width(component)));
    uint32_t count = b.componentCount(inst.typeId());
    if (parts.size() != count)
      return refuse(inst, "its result has " + std::to_string(count) + " components where the image has " +
                              std::to_string(parts.size()) + " dimensions");
    return finish(inst, count == 1 ? parts[0] : b.op(spv::Op::OpCompositeConstruct, inst.typeId(), parts));
  }

  // Member `index` of the layout (1 order, 2 type) less what llvm-spirv adds back.
  Expected<bool> queryField(Instruction& inst, uint32_t index, uint32_t base) {
    ir::Builder b = ir::Builder::before(module_, &inst);
    Expected<ImageType> type = typeOfImage(inst, inst.idOperand(0));
    if (!type) return type.error();
    uint32_t uint32 = ir::typeInt(module_, 32);
    uint32_t layout = b.extract(ir::typeVector(module_, uint32, 4), inst.idOperand(0), kLayout);
    uint32_t value = b.isub(b.extract(uint32, layout, index), ir::constantUint(module_, 32, base));
    return finish(inst, b.resize(value, b.width(inst.typeId())));
  }

  uint32_t libraryTexelType(const std::string& kind) {
    uint32_t component = kind == "f" ? ir::typeFloat(module_, 32) : ir::typeInt(module_, 32);
    return ir::typeVector(module_, component, 4);
  }

  ir::Module& module_;
  std::unordered_map<uint32_t, ImageType> images_;  // by the record type's id
  std::map<const ir::Module*, ir::FunctionImporter> importers_;
};

bool isImageInstruction(const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpSampledImage:
    case spv::Op::OpImageSampleImplicitLod:
    case spv::Op::OpImageSampleExplicitLod:
    case spv::Op::OpImageSampleDrefImplicitLod:
    case spv::Op::OpImageSampleDrefExplicitLod:
    case spv::Op::OpImageSampleProjImplicitLod:
    case spv::Op::OpImageSampleProjExplicitLod:
    case spv::Op::OpImageSampleProjDrefImplicitLod:
    case spv::Op::OpImageSampleProjDrefExplicitLod:
    case spv::Op::OpImageFetch:
    case spv::Op::OpImageGather:
    case spv::Op::OpImageDrefGather:
    case spv::Op::OpImageRead:
    case spv::Op::OpImageWrite:
    case spv::Op::OpImage:
    case spv::Op::OpImageQueryFormat:
    case spv::Op::OpImageQueryOrder:
    case spv::Op::OpImageQuerySizeLod:
    case spv::Op::OpImageQuerySize:
    case spv::Op::OpImageQueryLod:
    case spv::Op::OpImageQueryLevels:
    case spv::Op::OpImageQuerySamples: return true;
    default: return false;
  }
}

constexpr std::string_view kRecordPrefix = "cl2vk.image";

}  // namespace

std::string imageRecordName(const ImageRecordName& image) { return "cl2vk." + image.type + "." + image.access; }

std::optional<ImageRecordName> parseImageRecordName(std::string_view name) {
  if (!name.starts_with(kRecordPrefix)) return std::nullopt;
  name.remove_prefix(std::string_view("cl2vk.").size());
  size_t dot = name.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  return ImageRecordName{std::string(name.substr(0, dot)), std::string(name.substr(dot + 1))};
}

Expected<PassResult> lowerImages(ir::Module& module) {
  bool any = false;
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    spv::Op op = inst.opcode();
    any = any || op == spv::Op::OpTypeImage || op == spv::Op::OpTypeSampler;
  }
  if (!any) return PassResult::kUnchanged;
  ImageLowering lowering(module);
  CL2VK_TRY(lowering.retype());
  Expected<PassResult> lowered = lowerInstructions(
      module, isImageInstruction, [&lowering](ir::Module&, Instruction& inst) { return lowering.lower(inst); });
  if (!lowered) return lowered.error();
  CL2VK_TRY(lowering.removeSampledImages());
  return PassResult::kChanged;
}

}  // namespace cl2vk
