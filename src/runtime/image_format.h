// The image formats cl2vk offers and what the host needs to know of them: a texel's size, and a
// fill colour's texel (clEnqueueFillImage). Kernels decode and encode texels in the builtin
// library (src/builtins/image.cl, docs/images.md); every format below is computed in software, the
// same way on every device.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <vector>

namespace cl2vk::runtime {

// The bytes of one texel of `format`; 0 for a format cl2vk does not offer (an unknown order or
// type, or a pair OpenCL does not allow, such as CL_RGB with CL_UNORM_INT8).
size_t texelSize(const cl_image_format& format);

// Whether `format` is one OpenCL defines: a channel order and type it names, in a pair it allows
// (CL_RGB only with the packed types, CL_BGRA only with 8-bit ones ...). A valid format cl2vk
// does not offer (texelSize 0) is CL_IMAGE_FORMAT_NOT_SUPPORTED, an invalid one
// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR.
bool imageFormatValid(const cl_image_format& format);

// Whether `format` may be used with `flags` (sRGB formats are read-only: cl2vk does not offer
// cl_khr_srgb_image_writes) for any image type.
bool imageFormatSupported(const cl_image_format& format, cl_mem_flags flags);

// The formats clGetSupportedImageFormats lists for `flags`, the same for every image type.
std::vector<cl_image_format> supportedImageFormats(cl_mem_flags flags);

// The texel that clEnqueueFillImage writes for `color`: four floats for normalized, half and float
// channel types, four ints for CL_SIGNED_INT*, four unsigned ints for CL_UNSIGNED_INT*, encoded as
// a kernel's write_image{f,i,ui} would (docs/images.md).
std::vector<std::byte> fillTexel(const cl_image_format& format, const void* color);

}  // namespace cl2vk::runtime
