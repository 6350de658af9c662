/* An OpenCL host program that runs work-group collectives: each work-group of 256 work-items
 * sums its values (work_group_reduce_add), computes their running sums
 * (work_group_scan_inclusive_add) and hands its first value to every member (work_group_broadcast),
 * over 1 << 20 ints. It checks every result against the CPU and prints the platform, the device,
 * the kernel time (from event profiling) and the wall time.
 *
 * It uses the platform whose name contains "cl2vk" (else the first one) and its first GPU (else
 * its first device of any type). Exit status: 0 when everything matched, 1 otherwise. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ITEMS (1u << 20)
#define GROUP 256u

static const char* kSource =
    "kernel void collectives(global const int* in, global int* sums, global int* prefix, global int* first) {\n"
    "  size_t i = get_global_id(0);\n"
    "  int v = in[i];\n"
    "  sums[i] = work_group_reduce_add(v);\n"
    "  prefix[i] = work_group_scan_inclusive_add(v);\n"
    "  first[i] = work_group_broadcast(v, (size_t)0);\n"
    "}\n";

static const char* errorName(cl_int code) {
  switch (code) {
#define NAME(c) \
  case c:       \
    return #c;
    NAME(CL_SUCCESS) NAME(CL_DEVICE_NOT_FOUND) NAME(CL_DEVICE_NOT_AVAILABLE) NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE) NAME(CL_OUT_OF_RESOURCES) NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_PROFILING_INFO_NOT_AVAILABLE) NAME(CL_BUILD_PROGRAM_FAILURE) NAME(CL_MAP_FAILURE)
    NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) NAME(CL_INVALID_VALUE) NAME(CL_INVALID_DEVICE_TYPE)
    NAME(CL_INVALID_PLATFORM) NAME(CL_INVALID_DEVICE) NAME(CL_INVALID_CONTEXT) NAME(CL_INVALID_QUEUE_PROPERTIES)
    NAME(CL_INVALID_COMMAND_QUEUE) NAME(CL_INVALID_HOST_PTR) NAME(CL_INVALID_MEM_OBJECT) NAME(CL_INVALID_BINARY)
    NAME(CL_INVALID_BUILD_OPTIONS) NAME(CL_INVALID_PROGRAM) NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    NAME(CL_INVALID_KERNEL_NAME) NAME(CL_INVALID_KERNEL_DEFINITION) NAME(CL_INVALID_KERNEL) NAME(CL_INVALID_ARG_INDEX)
    NAME(CL_INVALID_ARG_VALUE) NAME(CL_INVALID_ARG_SIZE) NAME(CL_INVALID_KERNEL_ARGS) NAME(CL_INVALID_WORK_DIMENSION)
    NAME(CL_INVALID_WORK_GROUP_SIZE) NAME(CL_INVALID_WORK_ITEM_SIZE) NAME(CL_INVALID_GLOBAL_OFFSET)
    NAME(CL_INVALID_EVENT_WAIT_LIST) NAME(CL_INVALID_EVENT) NAME(CL_INVALID_OPERATION) NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_GLOBAL_WORK_SIZE) NAME(CL_INVALID_PROPERTY)
#undef NAME
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "an unknown OpenCL error";
  }
}

/* Leaves main with exit status 1 when an OpenCL call fails, naming the call and the error. */
#define CHECK(call)                                                                              \
  do {                                                                                           \
    cl_int status_ = (call);                                                                     \
    if (status_ != CL_SUCCESS) {                                                                 \
      fprintf(stderr, "collectives_demo: %s failed: %s (%d)\n", #call, errorName(status_), status_); \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Picks the platform whose name contains "cl2vk", else the first, and writes its name. */
static cl_int pickPlatform(cl_platform_id* chosen, char* name, size_t nameSize) {
  cl_platform_id platforms[16];
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(16, platforms, &count);
  if (status != CL_SUCCESS) return status;
  if (count == 0) return CL_DEVICE_NOT_FOUND;
  if (count > 16) count = 16;
  *chosen = platforms[0];
  for (cl_uint i = 0; i < count; ++i) {
    char candidate[256] = "";
    status = clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof(candidate), candidate, NULL);
    if (status != CL_SUCCESS) return status;
    if (strstr(candidate, "cl2vk")) {
      *chosen = platforms[i];
      break;
    }
  }
  return clGetPlatformInfo(*chosen, CL_PLATFORM_NAME, nameSize, name, NULL);
}

int main(void) {
  double wallStart = seconds();
  cl_platform_id platform = NULL;
  char platformName[256] = "", deviceName[256] = "";
  CHECK(pickPlatform(&platform, platformName, sizeof(platformName)));
  cl_device_id device = NULL;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS) {
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  }
  CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(deviceName), deviceName, NULL));
  printf("platform: %s\ndevice:   %s\n", platformName, deviceName);

  cl_int status = CL_SUCCESS;
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  cl_context context = clCreateContext(properties, 1, &device, NULL, NULL, &status);
  CHECK(status);
  cl_queue_properties queueProperties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, queueProperties, &status);
  CHECK(status);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &status);
  CHECK(status);
  status = clBuildProgram(program, 1, &device, "-cl-std=CL2.0", NULL, NULL);
  if (status != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
    fprintf(stderr, "collectives_demo: the build failed: %s (%d)\n%s\n", errorName(status), status, log);
    return 1;
  }
  cl_kernel kernel = clCreateKernel(program, "collectives", &status);
  CHECK(status);

  int* in = malloc(ITEMS * sizeof(int));
  int* sums = malloc(ITEMS * sizeof(int));
  int* prefix = malloc(ITEMS * sizeof(int));
  int* first = malloc(ITEMS * sizeof(int));
  if (!in || !sums || !prefix || !first) {
    fprintf(stderr, "collectives_demo: out of host memory\n");
    return 1;
  }
  uint32_t state = 12345;
  for (size_t i = 0; i < ITEMS; ++i) {
    state = state * 1664525u + 1013904223u;
    in[i] = (int)(state >> 16) % 2001 - 1000;
  }
  cl_mem inBuffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ITEMS * sizeof(int), in, &status);
  CHECK(status);
  cl_mem outBuffers[3];
  for (int k = 0; k < 3; ++k) {
    outBuffers[k] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, ITEMS * sizeof(int), NULL, &status);
    CHECK(status);
  }
  CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &inBuffer));
  for (cl_uint k = 0; k < 3; ++k) CHECK(clSetKernelArg(kernel, k + 1, sizeof(cl_mem), &outBuffers[k]));

  size_t global = ITEMS, local = GROUP;
  cl_event ran;
  CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, &ran));
  CHECK(clEnqueueReadBuffer(queue, outBuffers[0], CL_FALSE, 0, ITEMS * sizeof(int), sums, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, outBuffers[1], CL_FALSE, 0, ITEMS * sizeof(int), prefix, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(queue, outBuffers[2], CL_FALSE, 0, ITEMS * sizeof(int), first, 0, NULL, NULL));
  CHECK(clFinish(queue));
  cl_ulong start = 0, end = 0;
  CHECK(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_START, sizeof(start), &start, NULL));
  CHECK(clGetEventProfilingInfo(ran, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL));

  size_t mismatches = 0;
  for (size_t group = 0; group < ITEMS / GROUP; ++group) {
    const size_t base = group * GROUP;
    int total = 0, running = 0;
    for (size_t k = 0; k < GROUP; ++k) total += in[base + k];
    for (size_t k = 0; k < GROUP; ++k) {
      running += in[base + k];
      size_t i = base + k;
      if (sums[i] != total || prefix[i] != running || first[i] != in[base]) {
        if (mismatches < 5) {
          fprintf(stderr, "item %zu: reduce %d (expected %d), scan %d (expected %d), broadcast %d (expected %d)\n", i, sums[i],
                  total, prefix[i], running, first[i], in[base]);
        }
        ++mismatches;
      }
    }
  }
  printf("ran:      work_group_reduce_add, work_group_scan_inclusive_add and work_group_broadcast over %u ints, "
         "work-groups of %u\n",
         ITEMS, GROUP);
  printf("result:   %s", mismatches == 0 ? "matches the CPU\n" : "DOES NOT match the CPU: ");
  if (mismatches != 0) printf("%zu of %u work-items differ\n", mismatches, ITEMS);
  printf("kernel:   %.3f ms (event profiling)\n", (double)(end - start) * 1e-6);

  clReleaseEvent(ran);
  for (int k = 0; k < 3; ++k) clReleaseMemObject(outBuffers[k]);
  clReleaseMemObject(inBuffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  free(in);
  free(sums);
  free(prefix);
  free(first);
  printf("wall:     %.3f ms (from start to finish, the build included)\n", (seconds() - wallStart) * 1e3);
  return mismatches == 0 ? 0 : 1;
}
