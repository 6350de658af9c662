// The OpenCL entry points that make and describe images (section 5.3 of the OpenCL 3.0 API
// specification): clCreateImage and its older forms, clGetSupportedImageFormats, clGetImageInfo.
// Their commands are in api_enqueue_image.cc; how images work, in docs/images.md.
#include "runtime/api_util.h"
#include "runtime/image_format.h"
#include "runtime/memory.h"

using namespace cl2vk::runtime;

namespace {

cl_mem createImage(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags,
                   const cl_image_format* format, const cl_image_desc* desc, void* host_ptr, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_mem_properties> copy;
  cl_int error = keptMemoryProperties(properties, &copy);
  if (error != CL_SUCCESS) return withError<cl_mem>(errcode_ret, error, nullptr);
  std::shared_ptr<Memory> memory = Memory::createImage(found, flags, format, desc, host_ptr, std::move(copy), &error);
  if (!memory) return withError<cl_mem>(errcode_ret, error, nullptr);
  return withError(errcode_ret, CL_SUCCESS, Memory::publish(memory));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                              const cl_image_format* image_format, const cl_image_desc* image_desc,
                                              void* host_ptr, cl_int* errcode_ret) {
  return createImage(context, nullptr, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                                            cl_mem_flags flags, const cl_image_format* image_format,
                                                            const cl_image_desc* image_desc, void* host_ptr,
                                                            cl_int* errcode_ret) {
  return createImage(context, properties, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_row_pitch, void* host_ptr,
                                                cl_int* errcode_ret) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = image_width;
  desc.image_height = image_height;
  desc.image_row_pitch = image_row_pitch;
  return createImage(context, nullptr, flags, image_format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format* image_format, size_t image_width,
                                                size_t image_height, size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) {
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  desc.image_width = image_width;
  desc.image_height = image_height;
  desc.image_depth = image_depth;
  desc.image_row_pitch = image_row_pitch;
  desc.image_slice_pitch = image_slice_pitch;
  return createImage(context, nullptr, flags, image_format, &desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type, cl_uint num_entries,
                                                           cl_image_format* image_formats, cl_uint* num_image_formats) {
  if (!Context::find(context)) return CL_INVALID_CONTEXT;
  switch (image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: break;
    default: return CL_INVALID_VALUE;
  }
  if (num_entries == 0 && image_formats != nullptr) return CL_INVALID_VALUE;
  std::vector<cl_image_format> formats = supportedImageFormats(flags);
  if (num_image_formats != nullptr) *num_image_formats = static_cast<cl_uint>(formats.size());
  for (cl_uint i = 0; image_formats != nullptr && i < num_entries && i < formats.size(); ++i)
    image_formats[i] = formats[i];
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) {
  std::shared_ptr<Memory> found = Memory::find(image);
  if (!found || !found->image()) return CL_INVALID_MEM_OBJECT;
  return found->getImageInfo(param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

}  // extern "C"
