#include "runtime/sampler.h"

namespace cl2vk::runtime {

std::shared_ptr<Sampler> Sampler::create(std::shared_ptr<Context> context, const cl_sampler_properties* properties,
                                         bool given, cl_int* error) {
  std::shared_ptr<Sampler> sampler(new Sampler(std::move(context)));
  *error = CL_INVALID_VALUE;
  bool seen[3] = {false, false, false};
  for (const cl_sampler_properties* p = properties; p != nullptr && p[0] != 0; p += 2) {
    cl_sampler_properties value = p[1];
    switch (p[0]) {
      case CL_SAMPLER_NORMALIZED_COORDS:
        if (seen[0] || (value != CL_TRUE && value != CL_FALSE)) return nullptr;
        sampler->normalized_ = static_cast<cl_bool>(value);
        seen[0] = true;
        break;
      case CL_SAMPLER_ADDRESSING_MODE:
        if (seen[1] || value < CL_ADDRESS_NONE || value > CL_ADDRESS_MIRRORED_REPEAT) return nullptr;
        sampler->addressing_ = static_cast<cl_addressing_mode>(value);
        seen[1] = true;
        break;
      case CL_SAMPLER_FILTER_MODE:
        if (seen[2] || (value != CL_FILTER_NEAREST && value != CL_FILTER_LINEAR)) return nullptr;
        sampler->filter_ = static_cast<cl_filter_mode>(value);
        seen[2] = true;
        break;
      default: return nullptr;
    }
    sampler->properties_.insert(sampler->properties_.end(), {p[0], p[1]});
  }
  if (given && properties != nullptr) {
    sampler->properties_.push_back(0);
  } else {
    sampler->properties_.clear();
  }
  // OpenCL C: the repeat modes are defined only with normalized coordinates.
  bool repeats = sampler->addressing_ == CL_ADDRESS_REPEAT || sampler->addressing_ == CL_ADDRESS_MIRRORED_REPEAT;
  if (repeats && !sampler->normalized_) return nullptr;
  *error = CL_SUCCESS;
  return sampler;
}

uint32_t Sampler::bits() const {
  uint32_t addressing = (addressing_ - CL_ADDRESS_NONE) << 1;  // CLK_ADDRESS_NONE 0, CLAMP_TO_EDGE 2 ...
  return (normalized_ ? 1u : 0u) | addressing | (filter_ == CL_FILTER_LINEAR ? 0x20u : 0x10u);
}

cl_int Sampler::getInfo(cl_sampler_info param, const InfoOut& out) {
  switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_SAMPLER_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_SAMPLER_NORMALIZED_COORDS: return out.scalar<cl_bool>(normalized_);
    case CL_SAMPLER_ADDRESSING_MODE: return out.scalar<cl_addressing_mode>(addressing_);
    case CL_SAMPLER_FILTER_MODE: return out.scalar<cl_filter_mode>(filter_);
    case CL_SAMPLER_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
