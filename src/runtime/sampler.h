// cl_sampler: how a kernel's read_image* filters and addresses an image. A sampler argument is
// its OpenCL C sampler bits (docs/images.md), which the builtin library decodes.
#pragma once

#include <memory>
#include <vector>

#include "runtime/context.h"
#include "runtime/object.h"

namespace cl2vk::runtime {

class Sampler : public Object<Sampler, _cl_sampler> {
 public:
  // From clCreateSamplerWithProperties' list (`given`: CL_SAMPLER_PROPERTIES reports it), or
  // clCreateSampler's arguments made into one; CL_INVALID_VALUE for an unknown property or value,
  // or repeat modes without normalized coordinates.
  static std::shared_ptr<Sampler> create(std::shared_ptr<Context> context, const cl_sampler_properties* properties,
                                         bool given, cl_int* error);

  Context& context() { return *context_; }
  // CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_* | CLK_FILTER_*, as a sampler_t in OpenCL C.
  uint32_t bits() const;

  cl_int getInfo(cl_sampler_info param, const InfoOut& out);

 private:
  explicit Sampler(std::shared_ptr<Context> context) : context_(std::move(context)) {}

  std::shared_ptr<Context> context_;
  cl_bool normalized_ = CL_TRUE;
  cl_addressing_mode addressing_ = CL_ADDRESS_CLAMP;
  cl_filter_mode filter_ = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> properties_;  // as given, for CL_SAMPLER_PROPERTIES
};

}  // namespace cl2vk::runtime
