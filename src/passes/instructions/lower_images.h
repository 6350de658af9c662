#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/module.h"
#include "passes/pass.h"

namespace cl2vk {

// The names lower-images gives its record types, which lower-kernel-interface reads to report
// image and sampler arguments: "cl2vk.<OpenCL type>.<access>" and kSamplerRecordName.
struct ImageRecordName {
  std::string type;    // "image2d_t"
  std::string access;  // "read_only", "write_only" or "read_write"
};
std::string imageRecordName(const ImageRecordName& image);
std::optional<ImageRecordName> parseImageRecordName(std::string_view name);
inline constexpr std::string_view kSamplerRecordName = "cl2vk.sampler_t";

// OpenCL images and samplers in software (docs/images.md). Each OpTypeImage becomes the image
// record struct {data address, slice pitch, uint4 size, uint4 layout} named
// "cl2vk.<OpenCL type>.<access>" (cl2vk.image2d_t.read_only), which lower-kernel-interface reports
// as an image argument; OpTypeSampler becomes struct {uint} named "cl2vk.sampler_t" holding OpenCL
// C's sampler bits, and OpConstantSampler that constant. OpImageRead, OpImageWrite and
// OpImageSampleExplicitLod call the builtin library's texel functions (src/builtins/image.cl);
// the size, format and order queries read the record. Depth, multisampled and mipmapped images,
// and image instructions OpenCL does not use, are refused naming the kernel and instruction.
// Runs before link-builtins, so that the library code's own OpenCL.std calls are linked.
Expected<PassResult> lowerImages(ir::Module& module);

}  // namespace cl2vk
