// The OpenCL entry points of samplers (section 5.7 of the OpenCL 3.0 API specification).
#include "runtime/api_util.h"
#include "runtime/sampler.h"

using namespace cl2vk::runtime;

namespace {

cl_sampler createSampler(cl_context context, const cl_sampler_properties* properties, bool given, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_int error = CL_SUCCESS;
  std::shared_ptr<Sampler> sampler = Sampler::create(found, properties, given, &error);
  if (!sampler) return withError<cl_sampler>(errcode_ret, error, nullptr);
  return withError(errcode_ret, CL_SUCCESS, Sampler::publish(sampler));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                                  const cl_sampler_properties* sampler_properties,
                                                                  cl_int* errcode_ret) {
  return createSampler(context, sampler_properties, true, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                                                    cl_int* errcode_ret) {
  const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                              normalized_coords,
                                              CL_SAMPLER_ADDRESSING_MODE,
                                              addressing_mode,
                                              CL_SAMPLER_FILTER_MODE,
                                              filter_mode,
                                              0};
  return createSampler(context, properties, false, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return retainObject<Sampler>(sampler, CL_INVALID_SAMPLER);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return releaseObject<Sampler>(sampler, CL_INVALID_SAMPLER);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return objectInfo<Sampler>(sampler, CL_INVALID_SAMPLER, param_name, param_value_size, param_value,
                             param_value_size_ret);
}

}  // extern "C"
