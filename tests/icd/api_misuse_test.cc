// Misuse of the API: null handles, handles of another kind or context, wrong kernel arguments and
// impossible NDRanges, each refused with the error code the specification gives.

#include <algorithm>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kWithLocal = R"(
kernel void with_local(global int* out, local int* scratch, int value) {
  scratch[get_local_id(0)] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[get_local_size(0) - 1 - get_local_id(0)];
}
)";

class IcdMisuse : public IcdTest {
 protected:
  Context otherContext() {
    cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
    cl_int status = CL_SUCCESS;
    Context context(clCreateContext(properties, 1, &device_, nullptr, nullptr, &status));
    EXPECT_CL_SUCCESS(status);
    return context;
  }
};

TEST_F(IcdMisuse, NullHandlesAreRefusedWithTheirKindsError) {
  cl_int status = CL_SUCCESS;
  Buffer buffer = createBuffer(64);
  int value = 0;
  EXPECT_EQ(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, status);
  EXPECT_EQ(clCreateCommandQueueWithProperties(nullptr, device_, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, status);
  const char* source = "kernel void k(global int* p) { *p = 1; }";
  EXPECT_EQ(clCreateProgramWithSource(nullptr, 1, &source, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, status);
  cl_uint count = 0;
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof(count), &count, nullptr));

  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clFinish(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clFlush(nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE,
                  clEnqueueWriteBuffer(nullptr, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));

  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueReadBuffer(queue_, nullptr, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueCopyBuffer(queue_, buffer, nullptr, 0, 0, 4, 0, nullptr, nullptr));
  size_t size = 0;
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clGetMemObjectInfo(nullptr, CL_MEM_SIZE, sizeof(size), &size, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(nullptr));

  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelArg(nullptr, 0, sizeof(value), &value));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof(count), &count, nullptr));
  const size_t global = 1;
  EXPECT_CL_ERROR(CL_INVALID_KERNEL,
                  clEnqueueNDRangeKernel(queue_, nullptr, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clReleaseKernel(nullptr));

  EXPECT_CL_ERROR(CL_INVALID_PROGRAM, clBuildProgram(nullptr, 1, &device_, "", nullptr, nullptr));
  EXPECT_EQ(clCreateKernel(nullptr, "k", &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM, status);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM,
                  clGetProgramInfo(nullptr, CL_PROGRAM_NUM_DEVICES, sizeof(count), &count, nullptr));

  cl_int eventStatus = 0;
  EXPECT_CL_ERROR(CL_INVALID_EVENT, clGetEventInfo(nullptr, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(eventStatus),
                                                   &eventStatus, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_EVENT, clReleaseEvent(nullptr));
  cl_uint units = 0;
  EXPECT_CL_ERROR(CL_INVALID_DEVICE,
                  clGetDeviceInfo(nullptr, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, nullptr));
}

// A valid object of another kind is no more a kernel (or a queue ...) than a null one.
TEST_F(IcdMisuse, HandlesOfAnotherKindAreRefused) {
  Buffer buffer = createBuffer(64);
  Program program = buildCorpusModule("kernels/several_kernels.O2.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "fill");
  int value = 0;
  EXPECT_CL_ERROR(CL_INVALID_KERNEL,
                  clSetKernelArg(reinterpret_cast<cl_kernel>(buffer.get()), 1, sizeof(value), &value));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clFinish(reinterpret_cast<cl_command_queue>(context_.get())));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(queue_, reinterpret_cast<cl_mem>(kernel.get()), CL_TRUE, 0,
                                                             sizeof(value), &value, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM,
                  clBuildProgram(reinterpret_cast<cl_program>(buffer.get()), 1, &device_, "", nullptr, nullptr));
  cl_mem notABuffer = reinterpret_cast<cl_mem>(kernel.get());
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(kernel, 0, sizeof(cl_mem), &notABuffer));
}

TEST_F(IcdMisuse, ObjectsOfAnotherContextAreRefused) {
  Context other = otherContext();
  ASSERT_TRUE(other.get());
  cl_int status = CL_SUCCESS;
  Queue otherQueue(clCreateCommandQueueWithProperties(other, device_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  Buffer buffer = createBuffer(64);
  int value = 0;
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clEnqueueReadBuffer(otherQueue, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
  Program program = buildCorpusModule("kernels/several_kernels.O2.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "fill");
  setArgs(kernel, buffer, cl_int{1});
  const size_t global = 16;
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT,
                  clEnqueueNDRangeKernel(otherQueue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
}

TEST_F(IcdMisuse, WrongKernelArgumentsAreRefused) {
  Program program = buildSource(kWithLocal);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "with_local");
  ASSERT_TRUE(kernel.get());
  Buffer buffer = createBuffer(256 * sizeof(cl_int));
  cl_int value = 3;
  cl_long wide = 3;
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, clSetKernelArg(kernel, 3, sizeof(value), &value));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 2, sizeof(wide), &wide));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 0, sizeof(cl_mem) / 2, buffer.address()));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 2, sizeof(value), nullptr));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 1, 0, nullptr));   // __local needs a size
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(kernel, 1, 64, &value));  // ... and no value

  // Arguments left unset make the enqueue fail; once all are set it runs.
  const size_t global = 256, local = 64;
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(cl_mem), buffer.address()));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, local * sizeof(cl_int), nullptr));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof(value), &value));
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(buffer, global), std::vector<cl_int>(global, 3));
}

TEST_F(IcdMisuse, ImpossibleNDRangesAreRefused) {
  Program program = buildSource(kWithLocal);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "with_local");
  Buffer buffer = createBuffer(4096 * sizeof(cl_int));
  size_t kernelMax = 0;
  ASSERT_CL_SUCCESS(
      clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernelMax), &kernelMax, nullptr));
  cl_int value = 1;
  setArgs(kernel, buffer);
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof(cl_int), nullptr));
  setArg(kernel, 2, value);
  const size_t global[3] = {64, 1, 1};
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION,
                  clEnqueueNDRangeKernel(queue_, kernel, 0, nullptr, global, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_WORK_DIMENSION,
                  clEnqueueNDRangeKernel(queue_, kernel, 4, nullptr, global, nullptr, 0, nullptr, nullptr));

  // More work-items in a group than the kernel allows, each dimension within the device's limits.
  auto itemSizes = deviceInfoArray<size_t>(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  ASSERT_GE(itemSizes.size(), 2u);
  size_t x = std::min(itemSizes[0], kernelMax), y = std::min<size_t>(itemSizes[1], kernelMax / x + 1);
  if (x * y > kernelMax) {
    const size_t local[2] = {x, y};
    EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                    clEnqueueNDRangeKernel(queue_, kernel, 2, nullptr, local, local, 0, nullptr, nullptr))
        << "local " << x << "x" << y << ", CL_KERNEL_WORK_GROUP_SIZE " << kernelMax;
  } else {
    std::cout << "[ SKIPPED ] no work-group larger than CL_KERNEL_WORK_GROUP_SIZE fits CL_DEVICE_MAX_WORK_ITEM_SIZES\n";
  }
  // One dimension beyond CL_DEVICE_MAX_WORK_ITEM_SIZES, the group as a whole within the kernel's limit.
  auto narrow = std::min_element(itemSizes.begin(), itemSizes.end());
  if (*narrow < kernelMax) {
    size_t local[3] = {1, 1, 1}, range[3] = {1, 1, 1};
    size_t d = static_cast<size_t>(narrow - itemSizes.begin());
    local[d] = range[d] = *narrow + 1;
    EXPECT_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE,
                    clEnqueueNDRangeKernel(queue_, kernel, 3, nullptr, range, local, 0, nullptr, nullptr))
        << "dimension " << d << " local " << local[d];
  } else {
    std::cout << "[ SKIPPED ] CL_INVALID_WORK_ITEM_SIZE: every CL_DEVICE_MAX_WORK_ITEM_SIZES entry is at least "
                 "CL_KERNEL_WORK_GROUP_SIZE\n";
  }
  EXPECT_CL_SUCCESS(clFinish(queue_));
}

// A handle used after its last release is refused with its kind's error, like a null one.
TEST_F(IcdMisuse, ReleasedHandlesAreRefused) {
  Program program = buildSource(kWithLocal);
  ASSERT_TRUE(program.get());
  cl_kernel kernel = createKernel(program, "with_local").take();
  cl_mem buffer = createBuffer(64).take();
  cl_event event = nullptr;
  int value = 0;
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, &event));
  cl_command_queue queue = nullptr;
  cl_int status = CL_SUCCESS;
  queue = clCreateCommandQueueWithProperties(context_, device_, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clReleaseKernel(kernel));
  ASSERT_CL_SUCCESS(clReleaseMemObject(buffer));
  ASSERT_CL_SUCCESS(clReleaseEvent(event));
  ASSERT_CL_SUCCESS(clReleaseCommandQueue(queue));

  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clSetKernelArg(kernel, 2, sizeof(value), &value));
  EXPECT_CL_ERROR(CL_INVALID_KERNEL, clReleaseKernel(kernel));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(buffer));
  EXPECT_CL_ERROR(CL_INVALID_EVENT, clWaitForEvents(1, &event));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST, clEnqueueMarkerWithWaitList(queue_, 1, &event, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clFinish(queue));
  EXPECT_CL_ERROR(CL_INVALID_COMMAND_QUEUE, clReleaseCommandQueue(queue));
  EXPECT_CL_SUCCESS(clFinish(queue_));
}

// Work sizes past what a launch can address: each dimension and its offset stay below 2^32.
TEST_F(IcdMisuse, OutOfRangeWorkSizesAreRefused) {
  Program program = buildSource(kWithLocal);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "with_local");
  Buffer buffer = createBuffer(64 * sizeof(cl_int));
  cl_int value = 1;
  setArgs(kernel, buffer);
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, 64 * sizeof(cl_int), nullptr));
  setArg(kernel, 2, value);
  const size_t huge = size_t{1} << 32, local = 64;
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &huge, &local, 0, nullptr, nullptr));
  const size_t global = local, offset = huge - local / 2;
  EXPECT_CL_ERROR(CL_INVALID_GLOBAL_OFFSET,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, &offset, &global, &local, 0, nullptr, nullptr));
  const size_t zeroLocal = 0;
  EXPECT_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &zeroLocal, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_int>(buffer, global), std::vector<cl_int>(global, 1));
}

}  // namespace
}  // namespace cl2vk::test
