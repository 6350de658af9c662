// Images as an image-processing program uses them (issue 28): 2D images of --shape WxH texels,
// moved by one of
//   copy          a kernel copying a CL_RGBA CL_UNORM_INT8 image texel by texel (read_imagef at
//                 integer coordinates, write_imagef)
//   copy-float    the same with CL_RGBA CL_FLOAT
//   conv5x5       a 5x5 convolution of a CL_RGBA CL_UNORM_INT8 image through a sampler
//                 (unnormalized, clamp to edge, nearest): 25 sampled reads per texel written
//   bilinear      a resampling of the same image at a fractional offset with a linear, normalized,
//                 clamp-to-edge sampler (4 texels mixed per read)
//   write, read   blocking clEnqueueWriteImage / clEnqueueReadImage of the whole RGBA8 image
// Each call ends with clFinish and is timed on the host clock; GB/s counts the image bytes read and
// written once each (conv5x5 and bilinear: the input and the output image, not every sampled read).
// Every benchmark checks its result against a CPU reference: copies and transfers exactly,
// conv5x5 within 1/255 and bilinear within 2/255 of each channel (8-bit results of float sums).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "client.h"

using namespace cl2vk::clients;

namespace {

constexpr const char* kUsage =
    "cl2vk-client-image --bench copy|copy-float|conv5x5|bilinear|write|read --shape WxH [--runs R]";

constexpr const char* kSource = R"(
kernel void copy(read_only image2d_t in, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, p, read_imagef(in, p));
}

kernel void conv5x5(read_only image2d_t in, write_only image2d_t out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = 0.0f;
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) {
      float weight = (float)(3 - abs(dx)) * (float)(3 - abs(dy)) / 81.0f;
      sum += weight * read_imagef(in, s, p + (int2)(dx, dy));
    }
  }
  write_imagef(out, p, sum);
}

kernel void bilinear(read_only image2d_t in, write_only image2d_t out) {
  const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 size = convert_float2(get_image_dim(in));
  write_imagef(out, p, read_imagef(in, s, (convert_float2(p) + (float2)(0.87f, 0.61f)) / size));
}
)";

// Texel channel c of an RGBA8 test image: differs between neighbours in x, y and c.
uint8_t texel(size_t x, size_t y, int c) { return static_cast<uint8_t>(x * 7 + y * 13 + c * 59 + (x * y >> 3)); }

std::vector<uint8_t> testImage(size_t width, size_t height) {
  std::vector<uint8_t> bytes(width * height * 4);
  for (size_t y = 0; y < height; ++y) {
    for (size_t x = 0; x < width; ++x) {
      for (int c = 0; c < 4; ++c) bytes[(y * width + x) * 4 + c] = texel(x, y, c);
    }
  }
  return bytes;
}

double unorm(const std::vector<uint8_t>& image, size_t width, size_t height, long x, long y, int c) {
  x = std::clamp<long>(x, 0, static_cast<long>(width) - 1);
  y = std::clamp<long>(y, 0, static_cast<long>(height) - 1);
  return image[(y * width + x) * 4 + c] / 255.0;
}

// What the kernel of `bench` writes at (x, y), channel c, in [0, 1].
double reference(const std::string& bench, const std::vector<uint8_t>& in, size_t width, size_t height, size_t x,
                 size_t y, int c) {
  if (bench == "conv5x5") {
    double sum = 0;
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx)
        sum += (3 - std::abs(dx)) * (3 - std::abs(dy)) / 81.0 * unorm(in, width, height, long(x) + dx, long(y) + dy, c);
    }
    return sum;
  }
  // bilinear: u = x + 0.87 in texels, mixing texels floor(u - 0.5) and the next.
  double u = x + 0.87 - 0.5, v = y + 0.61 - 0.5;
  long i = static_cast<long>(std::floor(u)), j = static_cast<long>(std::floor(v));
  double a = u - i, b = v - j;
  return (1 - a) * (1 - b) * unorm(in, width, height, i, j, c) + a * (1 - b) * unorm(in, width, height, i + 1, j, c) +
         (1 - a) * b * unorm(in, width, height, i, j + 1, c) + a * b * unorm(in, width, height, i + 1, j + 1, c);
}

// The program's build log on its first device, for an error message.
void image(const Options& options, Session& session, Result& result) {
  if (options.shape.size() != 2 || options.shape[0] == 0 || options.shape[1] == 0) {
    result.error = "--shape is the image's WxH";
    return;
  }
  const std::string& bench = options.bench;
  const size_t width = options.shape[0], height = options.shape[1];
  const bool isFloat = bench == "copy-float";
  const size_t texelBytes = isFloat ? 16 : 4;
  const size_t bytes = width * height * texelBytes;
  result.metric = "GB/s";
  bool transfer = bench == "write" || bench == "read";
  result.workPerCall = double(transfer ? bytes : 2 * bytes);
  result.check = bench == "conv5x5"    ? "every channel within 1/255 of a CPU convolution"
                 : bench == "bilinear" ? "every channel within 2/255 of a CPU bilinear filter"
                                       : "every byte compared with the CPU's";
  cl_context context = session.context();
  cl_command_queue queue = session.queue();
  cl_image_format format{CL_RGBA, isFloat ? static_cast<cl_channel_type>(CL_FLOAT) : CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = width;
  desc.image_height = height;
  std::vector<uint8_t> input = testImage(width, height);
  std::vector<float> inputFloat;
  const void* inputBytes = input.data();
  if (isFloat) {
    inputFloat.resize(width * height * 4);
    for (size_t i = 0; i < inputFloat.size(); ++i) inputFloat[i] = input[i] * 0.5f - 7.25f;
    inputBytes = inputFloat.data();
  }
  cl_int status = CL_SUCCESS;
  cl_mem in = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                            const_cast<void*>(inputBytes), &status);
  if (status != CL_SUCCESS) {
    result.error = clError("clCreateImage", status);
    return;
  }
  cl_mem out = clCreateImage(context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &status);
  if (status != CL_SUCCESS) {
    clReleaseMemObject(in);
    result.error = clError("clCreateImage", status);
    return;
  }
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  std::string error;
  const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
  std::vector<uint8_t> host(bytes);
  Call call;
  if (bench == "write") {
    call = [&] {
      return failure("clEnqueueWriteImage",
                     clEnqueueWriteImage(queue, out, CL_TRUE, origin, region, 0, 0, inputBytes, 0, nullptr, nullptr));
    };
  } else if (bench == "read") {
    call = [&] {
      return failure("clEnqueueReadImage",
                     clEnqueueReadImage(queue, in, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr));
    };
  } else if (bench == "copy" || bench == "copy-float" || bench == "conv5x5" || bench == "bilinear") {
    program = buildProgram(context, kSource, error);
    if (error.empty()) kernel = clCreateKernel(program, bench == "copy-float" ? "copy" : bench.c_str(), &status);
    if (error.empty()) error = failure("clCreateKernel", status);
    if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(kernel, 0, sizeof in, &in));
    if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(kernel, 1, sizeof out, &out));
    call = [&] {
      const size_t global[2] = {width, height};
      return failure("clEnqueueNDRangeKernel",
                     clEnqueueNDRangeKernel(queue, kernel, 2, nullptr, global, nullptr, 0, nullptr, nullptr));
    };
  } else {
    error = "unknown --bench " + bench + "\nusage: " + kUsage;
  }
  if (error.empty()) {
    result.timing = timeCalls(queue, options.runs, call);
    error = result.timing.error;
  }
  // The check: what the last call left.
  if (error.empty() && bench != "read") {
    error = failure("clEnqueueReadImage",
                    clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr));
  }
  if (error.empty()) {
    if (bench == "conv5x5" || bench == "bilinear") {
      double tolerance = (bench == "conv5x5" ? 1.0 : 2.0) / 255.0;
      for (size_t y = 0; y < height && error.empty(); ++y) {
        for (size_t x = 0; x < width && error.empty(); ++x) {
          for (int c = 0; c < 4; ++c) {
            double expected = reference(bench, input, width, height, x, y, c);
            double got = host[(y * width + x) * 4 + c] / 255.0;
            if (std::fabs(got - expected) > tolerance) {
              error = bench + " at (" + std::to_string(x) + ", " + std::to_string(y) + ") channel " +
                      std::to_string(c) + ": " + std::to_string(got) + ", expected " + std::to_string(expected);
              break;
            }
          }
        }
      }
    } else if (std::memcmp(host.data(), inputBytes, bytes) != 0) {
      error = bench + ": the image's bytes differ from the input's";
    }
  }
  if (kernel) clReleaseKernel(kernel);
  if (program) clReleaseProgram(program);
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  result.error = error;
  result.verified = error.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseOptions(argc, argv, kUsage);
  return runClient(options, "image",
                   [&](const Device&, Session& session, Result& result) { image(options, session, result); });
}
