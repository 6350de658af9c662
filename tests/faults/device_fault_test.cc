// Device faults through the OpenCL API: device memory running out, a device lost during a run, a
// build that fails, a buffer above the device's limit. Each fault gets its error code, later calls
// return errors instead of hanging, and another context's work, in flight across the fault,
// completes with results equal to the CPU's. The faults are made by the test-only Vulkan layer
// faults/fault_layer.cc, which ctest enables for this executable alone.

#include <dlfcn.h>

#include <chrono>
#include <numeric>

#include "cl2vk/cl_ext_cl2vk.h"
#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kAffine = R"(
kernel void affine(global const int* x, global int* y, int a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + (int)i;
}
)";

constexpr size_t kItems = 4096;

std::vector<cl_int> inputs() {
  std::vector<cl_int> x(kItems);
  std::iota(x.begin(), x.end(), -1000);
  return x;
}

std::vector<cl_int> affineOnTheCpu(const std::vector<cl_int>& x, cl_int a) {
  std::vector<cl_int> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = a * x[i] + static_cast<cl_int>(i);
  return y;
}

// The fault layer's controls (fault_layer.cc), found in the library the Vulkan loader loads.
struct FaultLayer {
  void (*refuseDevices)(uint32_t count) = nullptr;
  void (*failAllocations)(uint32_t pass, uint32_t count) = nullptr;
  void (*loseDeviceAtSubmit)(uint32_t pass) = nullptr;
  void (*loseDeviceAtWait)(uint32_t pass) = nullptr;
  void (*disarm)() = nullptr;
  uint32_t (*devicesLost)() = nullptr;

  // The controls, or a reason why they are not there.
  static FaultLayer load(std::string* why) {
    FaultLayer layer;
    const char* instanceLayers = std::getenv("VK_INSTANCE_LAYERS");
    if (instanceLayers == nullptr ||
        std::string(instanceLayers).find("VK_LAYER_CL2VK_fault_injection") == std::string::npos) {
      *why = "VK_INSTANCE_LAYERS does not enable VK_LAYER_CL2VK_fault_injection (run through ctest)";
      return layer;
    }
    // The loader opens the same file when it creates an instance: one copy, one set of faults.
    void* library = dlopen(CL2VK_FAULT_LAYER_PATH, RTLD_NOW);
    if (library == nullptr) {
      *why = std::string("cannot open the fault layer: ") + dlerror();
      return layer;
    }
    layer.refuseDevices = reinterpret_cast<decltype(layer.refuseDevices)>(dlsym(library, "cl2vk_fault_refuse_devices"));
    layer.failAllocations =
        reinterpret_cast<decltype(layer.failAllocations)>(dlsym(library, "cl2vk_fault_fail_allocations"));
    layer.loseDeviceAtSubmit =
        reinterpret_cast<decltype(layer.loseDeviceAtSubmit)>(dlsym(library, "cl2vk_fault_lose_device_at_submit"));
    layer.loseDeviceAtWait =
        reinterpret_cast<decltype(layer.loseDeviceAtWait)>(dlsym(library, "cl2vk_fault_lose_device_at_wait"));
    layer.disarm = reinterpret_cast<decltype(layer.disarm)>(dlsym(library, "cl2vk_fault_disarm"));
    layer.devicesLost = reinterpret_cast<decltype(layer.devicesLost)>(dlsym(library, "cl2vk_fault_devices_lost"));
    if (!layer.refuseDevices || !layer.failAllocations || !layer.loseDeviceAtSubmit || !layer.loseDeviceAtWait ||
        !layer.disarm || !layer.devicesLost)
      *why = "the fault layer lacks its controls";
    return layer;
  }
};

cl_int eventStatus(cl_event event) {
  cl_int status = CL_QUEUED;
  EXPECT_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
  return status;
}

// One context with a queue and the affine kernel, and the messages its callback received. The
// fixture's own context_ and queue_ are the bystander, which must not notice another's fault.
struct Tenant {
  Context context;
  Queue queue;
  Program program;
  Kernel kernel;
  std::vector<std::string> messages;

  static void CL_CALLBACK collect(const char* message, const void*, size_t, void* tenant) {
    static_cast<Tenant*>(tenant)->messages.push_back(message);
  }
  bool told(const std::string& words) const {
    for (const std::string& message : messages) {
      if (message.find(words) != std::string::npos) return true;
    }
    return false;
  }
  std::string allMessages() const {
    std::string all;
    for (const std::string& message : messages) all += message + "\n";
    return all;
  }
};

class DeviceFault : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    std::string why;
    layer_ = FaultLayer::load(&why);
    ASSERT_TRUE(why.empty()) << why;
    layer_.disarm();
  }
  void TearDown() override {
    if (layer_.disarm) layer_.disarm();
  }

  // A new context on the device with the affine kernel built.
  std::unique_ptr<Tenant> newTenant() {
    auto tenant = std::make_unique<Tenant>();
    cl_int status = CL_SUCCESS;
    tenant->context = Context(clCreateContext(nullptr, 1, &device_, &Tenant::collect, tenant.get(), &status));
    EXPECT_CL_SUCCESS(status);
    tenant->queue = Queue(clCreateCommandQueueWithProperties(tenant->context, device_, nullptr, &status));
    EXPECT_CL_SUCCESS(status);
    const char* source = kAffine;
    tenant->program = Program(clCreateProgramWithSource(tenant->context, 1, &source, nullptr, &status));
    EXPECT_CL_SUCCESS(status);
    EXPECT_CL_SUCCESS(clBuildProgram(tenant->program, 1, &device_, "", nullptr, nullptr));
    tenant->kernel = Kernel(clCreateKernel(tenant->program, "affine", &status));
    EXPECT_CL_SUCCESS(status);
    return tenant;
  }

  // Runs affine(x, y, a) in `context` on `queue` and returns y (empty, with a test failure, when
  // a call fails).
  std::vector<cl_int> runAffine(cl_context context, cl_command_queue queue, cl_kernel kernel, cl_int a) {
    std::vector<cl_int> x = inputs(), y(kItems, 0);
    cl_int status = CL_SUCCESS;
    Buffer in(clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_int), x.data(), &status));
    EXPECT_CL_SUCCESS(status);
    Buffer out(clCreateBuffer(context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, &status));
    EXPECT_CL_SUCCESS(status);
    if (status != CL_SUCCESS) return {};
    setArgs(kernel, in, out, a);
    EXPECT_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr));
    EXPECT_CL_SUCCESS(
        clEnqueueReadBuffer(queue, out, CL_TRUE, 0, kItems * sizeof(cl_int), y.data(), 0, nullptr, nullptr));
    return y;
  }

  FaultLayer layer_;
};

// The bystander's work, queued behind a user event before a fault elsewhere and run after it.
struct GatedWork {
  Event gate;
  Buffer in, out;
  std::vector<cl_int> y = std::vector<cl_int>(kItems, -1);
  Event done;
};

TEST_F(DeviceFault, OutOfDeviceMemoryFailsTheAllocationAndTheNextOneWorks) {
  std::unique_ptr<Tenant> tenant = newTenant();
  ASSERT_TRUE(tenant->kernel.get());

  // Two failures: after the first the runtime empties its buffer cache and tries once more.
  layer_.failAllocations(0, 2);
  cl_int status = CL_SUCCESS;
  Buffer refused(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, 1 << 20, nullptr, &status));
  EXPECT_EQ(refused.get(), nullptr);
  EXPECT_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE, status);
  EXPECT_TRUE(tenant->told("clCreateBuffer: allocating 1048576 bytes on " + deviceString(device_, CL_DEVICE_NAME)))
      << tenant->allMessages();
  EXPECT_TRUE(tenant->told("VK_ERROR_OUT_OF_DEVICE_MEMORY")) << tenant->allMessages();

  // A transfer's staging memory runs out: the command fails, the buffer and the queue do not. A
  // CPU device's transfers need no memory (they copy into the buffer's own, which is host memory):
  // there the same transfer succeeds under the same faults.
  Buffer buffer(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  std::vector<cl_int> x = inputs();
  cl_device_type type = 0;
  ASSERT_CL_SUCCESS(clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof type, &type, nullptr));
  layer_.failAllocations(0, 2);
  Event write;
  cl_int written = clEnqueueWriteBuffer(tenant->queue, buffer, CL_TRUE, 0, kItems * sizeof(cl_int), x.data(), 0,
                                        nullptr, write.put());
  if (type & CL_DEVICE_TYPE_CPU) {
    EXPECT_CL_SUCCESS(written);
    EXPECT_EQ(eventStatus(write), CL_COMPLETE);
    layer_.disarm();
  } else {
    EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, written);
    EXPECT_EQ(eventStatus(write), CL_OUT_OF_RESOURCES);
  }
  EXPECT_CL_SUCCESS(
      clEnqueueWriteBuffer(tenant->queue, buffer, CL_TRUE, 0, kItems * sizeof(cl_int), x.data(), 0, nullptr, nullptr));
  std::vector<cl_int> back(kItems);
  EXPECT_CL_SUCCESS(clEnqueueReadBuffer(tenant->queue, buffer, CL_TRUE, 0, kItems * sizeof(cl_int), back.data(), 0,
                                        nullptr, nullptr));
  EXPECT_EQ(back, x);

  EXPECT_EQ(runAffine(tenant->context, tenant->queue, tenant->kernel, 3), affineOnTheCpu(x, 3));
  EXPECT_CL_SUCCESS(clFinish(tenant->queue));

  // Another context, which the failed allocations did not concern, computes as before.
  Program program = buildSource(kAffine);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "affine");
  EXPECT_EQ(runAffine(context_, queue_, kernel, -2), affineOnTheCpu(x, -2));
}

// An allocation that fails for want of memory empties the buffer cache, which may hold what is
// missing (docs/runtime.md, "Memory"), and is tried once more: the application sees no error, and
// the buffers released before it are allocated anew afterwards.
TEST_F(DeviceFault, OutOfDeviceMemoryEmptiesTheBufferCacheAndRetries) {
  std::unique_ptr<Tenant> tenant = newTenant();
  ASSERT_TRUE(tenant->kernel.get());
  auto allocations = [&] {
    cl_ulong count = 0;
    EXPECT_CL_SUCCESS(
        clGetContextInfo(tenant->context, CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK, sizeof count, &count, nullptr));
    return count;
  };
  cl_int status = CL_SUCCESS;
  clReleaseMemObject(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, 4096, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  const cl_ulong before = allocations();
  clReleaseMemObject(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, 4096, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(allocations(), before) << "the released buffer's memory is reused";

  layer_.failAllocations(0, 1);
  Buffer large(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, 1 << 20, nullptr, &status));
  EXPECT_CL_SUCCESS(status);
  EXPECT_EQ(allocations(), before + 1) << "the retry's allocation";
  clReleaseMemObject(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, 4096, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(allocations(), before + 2) << "the cache was emptied: the 4096-byte buffer is allocated anew";

  std::vector<cl_int> x = inputs();
  EXPECT_EQ(runAffine(tenant->context, tenant->queue, tenant->kernel, 5), affineOnTheCpu(x, 5));
}

// A device lost while a kernel runs fails that context's commands (CL_OUT_OF_RESOURCES) and every
// later call in it, at once; another context, with work queued across the loss, completes it
// correctly, and a new context works.
TEST_F(DeviceFault, DeviceLostDuringARunFailsOnlyItsContext) {
  Program program = buildSource(kAffine);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "affine");
  std::vector<cl_int> x = inputs();

  // The bystander's work, computed before the loss and queued to run after it.
  std::vector<cl_int> before = runAffine(context_, queue_, kernel, 5);
  EXPECT_EQ(before, affineOnTheCpu(x, 5));
  cl_int status = CL_SUCCESS;
  GatedWork gated;
  gated.gate = Event(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  gated.in = bufferOf(x);
  gated.out = createBuffer(kItems * sizeof(cl_int));
  setArgs(kernel, gated.in, gated.out, cl_int{7});
  ASSERT_CL_SUCCESS(
      clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &kItems, nullptr, 1, gated.gate.address(), nullptr));
  ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue_, gated.out, CL_FALSE, 0, kItems * sizeof(cl_int), gated.y.data(), 0,
                                        nullptr, gated.done.put()));

  std::unique_ptr<Tenant> victim = newTenant();
  ASSERT_TRUE(victim->kernel.get());
  EXPECT_EQ(runAffine(victim->context, victim->queue, victim->kernel, 2), affineOnTheCpu(x, 2));
  Queue secondQueue(clCreateCommandQueueWithProperties(victim->context, device_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  Buffer in(clCreateBuffer(victim->context, CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_int), x.data(), &status));
  Buffer out(clCreateBuffer(victim->context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, &status));
  setArgs(victim->kernel, in, out, cl_int{2});

  const uint32_t lostBefore = layer_.devicesLost();
  layer_.loseDeviceAtWait(0);  // the kernel's submission runs; waiting for it reports the loss
  const auto start = std::chrono::steady_clock::now();
  Event run;
  ASSERT_CL_SUCCESS(
      clEnqueueNDRangeKernel(victim->queue, victim->kernel, 1, nullptr, &kItems, nullptr, 0, nullptr, run.put()));
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, clFinish(victim->queue));
  EXPECT_EQ(eventStatus(run), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(layer_.devicesLost(), lostBefore + 1);
  EXPECT_TRUE(victim->told("kernel 'affine': ")) << victim->allMessages();
  EXPECT_TRUE(victim->told("vkWaitForFences failed: VK_ERROR_DEVICE_LOST")) << victim->allMessages();
  EXPECT_TRUE(victim->told("the context's Vulkan device is lost")) << victim->allMessages();

  // Every later call in the lost context is an error at once, on either of its queues.
  std::vector<cl_int> y(kItems);
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, clEnqueueReadBuffer(victim->queue, out, CL_TRUE, 0, kItems * sizeof(cl_int),
                                                           y.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, clEnqueueNDRangeKernel(secondQueue, victim->kernel, 1, nullptr, &kItems, nullptr,
                                                              0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, clFinish(secondQueue));
  EXPECT_EQ(clCreateBuffer(victim->context, CL_MEM_READ_WRITE, 64, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, status);
  EXPECT_EQ(clCreateCommandQueueWithProperties(victim->context, device_, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, status);
  EXPECT_TRUE(
      victim->told("the context's Vulkan device was lost (VK_ERROR_DEVICE_LOST); the context runs nothing more"))
      << victim->allMessages();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10)) << "the lost context hung";

  // The bystander's queued work runs now, and its results are the CPU's.
  ASSERT_CL_SUCCESS(clSetUserEventStatus(gated.gate, CL_COMPLETE));
  ASSERT_CL_SUCCESS(clWaitForEvents(1, gated.done.address()));
  EXPECT_EQ(gated.y, affineOnTheCpu(x, 7));
  EXPECT_EQ(read<cl_int>(gated.in, kItems), x) << "the bystander's buffers are intact";
  EXPECT_EQ(runAffine(context_, queue_, kernel, 11), affineOnTheCpu(x, 11));

  // The lost context is released without hanging, and a new context works.
  in.reset();
  out.reset();
  secondQueue.reset();
  victim.reset();
  std::unique_ptr<Tenant> next = newTenant();
  ASSERT_TRUE(next->kernel.get());
  EXPECT_EQ(runAffine(next->context, next->queue, next->kernel, -4), affineOnTheCpu(x, -4));
}

// Where the driver opens no more Vulkan devices (NVIDIA's stops at about 85 at once), a new
// context shares the open device that the fewest contexts share, says so through its callback,
// and works as it would on a device of its own; a lost device is shared no more.
TEST_F(DeviceFault, ContextsShareAVulkanDeviceWhereTheDriverOpensNoMore) {
  std::vector<cl_int> x = inputs();
  std::unique_ptr<Tenant> own = newTenant();  // beside the fixture's: two devices, one context each
  ASSERT_TRUE(own->kernel.get());
  EXPECT_FALSE(own->told("shares the Vulkan device")) << own->allMessages();
  layer_.refuseDevices(2);
  std::unique_ptr<Tenant> first = newTenant();
  std::unique_ptr<Tenant> second = newTenant();  // takes the device that first does not share
  ASSERT_TRUE(first->kernel.get() && second->kernel.get());
  const std::string sharing =
      "vkCreateDevice failed: VK_ERROR_INITIALIZATION_FAILED; the context shares the Vulkan device of 1 other "
      "context(s) instead, and a device lost fails them all";
  EXPECT_TRUE(first->told(sharing)) << first->allMessages();
  EXPECT_TRUE(second->told(sharing)) << second->allMessages();
  EXPECT_EQ(runAffine(first->context, first->queue, first->kernel, 3), affineOnTheCpu(x, 3));
  EXPECT_EQ(runAffine(second->context, second->queue, second->kernel, -6), affineOnTheCpu(x, -6));
  EXPECT_EQ(runAffine(own->context, own->queue, own->kernel, 9), affineOnTheCpu(x, 9));

  // Lost through first, its device fails first's commands; second's device is another, and works.
  layer_.loseDeviceAtWait(0);
  Buffer in(clCreateBuffer(first->context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, nullptr));
  Buffer out(clCreateBuffer(first->context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, nullptr));
  setArgs(first->kernel, in, out, cl_int{1});
  ASSERT_CL_SUCCESS(
      clEnqueueNDRangeKernel(first->queue, first->kernel, 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, clFinish(first->queue));
  layer_.disarm();
  EXPECT_EQ(runAffine(second->context, second->queue, second->kernel, 4), affineOnTheCpu(x, 4));

  // A context made now, with the driver out of devices again, shares the one not lost.
  layer_.refuseDevices(1);
  std::unique_ptr<Tenant> third = newTenant();
  ASSERT_TRUE(third->kernel.get());
  EXPECT_TRUE(third->told("the context shares the Vulkan device of 2 other context(s)")) << third->allMessages();
  EXPECT_EQ(runAffine(third->context, third->queue, third->kernel, 8), affineOnTheCpu(x, 8));
}

// A device lost at submission with several commands queued: each fails (the commands after the
// one that lost it too, without reaching the device), the ones waiting for a failed event fail
// with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, and nothing hangs.
TEST_F(DeviceFault, DeviceLostAtSubmissionFailsEveryQueuedCommand) {
  std::unique_ptr<Tenant> victim = newTenant();
  ASSERT_TRUE(victim->kernel.get());
  std::vector<cl_int> x = inputs(), y(kItems, -1);
  cl_int status = CL_SUCCESS;
  Buffer in(clCreateBuffer(victim->context, CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_int), x.data(), &status));
  Buffer out(clCreateBuffer(victim->context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  setArgs(victim->kernel, in, out, cl_int{2});
  Event gate(clCreateUserEvent(victim->context, &status));
  ASSERT_CL_SUCCESS(status);

  Event run, copy, read, dependent;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(victim->queue, victim->kernel, 1, nullptr, &kItems, nullptr, 1,
                                           gate.address(), run.put()));
  ASSERT_CL_SUCCESS(clEnqueueCopyBuffer(victim->queue, in, out, 0, 0, 64, 0, nullptr, copy.put()));
  ASSERT_CL_SUCCESS(
      clEnqueueReadBuffer(victim->queue, out, CL_FALSE, 0, kItems * sizeof(cl_int), y.data(), 0, nullptr, read.put()));
  ASSERT_CL_SUCCESS(clEnqueueMarkerWithWaitList(victim->queue, 1, run.address(), dependent.put()));

  layer_.loseDeviceAtSubmit(0);
  ASSERT_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  EXPECT_CL_ERROR(CL_OUT_OF_RESOURCES, clFinish(victim->queue));
  EXPECT_EQ(eventStatus(run), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(eventStatus(copy), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(eventStatus(read), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(eventStatus(dependent), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, clWaitForEvents(1, read.address()));
  EXPECT_TRUE(victim->told("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST")) << victim->allMessages();
  EXPECT_TRUE(victim->told("the Vulkan device was lost (VK_ERROR_DEVICE_LOST) in an earlier submission"))
      << victim->allMessages();

  // This fixture's context, opened before the loss, is untouched.
  Program program = buildSource(kAffine);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "affine");
  EXPECT_EQ(runAffine(context_, queue_, kernel, 9), affineOnTheCpu(x, 9));
}

// A program that fails to build leaves its context working: the next build succeeds and runs.
TEST_F(DeviceFault, FailedBuildLeavesTheContextWorking) {
  const char* broken = "kernel void affine(global const int* x, global int* y, int a) { y[0] = a * ; }\n";
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &broken, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  std::string log = programBuildLog(program, device_);
  EXPECT_NE(log.find("error: expected expression"), std::string::npos) << log;
  EXPECT_EQ(clCreateKernel(program, "affine", &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, status);

  Program good = buildSource(kAffine);
  ASSERT_TRUE(good.get());
  Kernel kernel = createKernel(good, "affine");
  EXPECT_EQ(runAffine(context_, queue_, kernel, 6), affineOnTheCpu(inputs(), 6));
}

// A buffer above CL_DEVICE_MAX_MEM_ALLOC_SIZE is refused before the device is asked; the context
// goes on.
TEST_F(DeviceFault, BufferAboveTheLargestAllocationIsInvalidBufferSize) {
  const cl_ulong largest = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  std::unique_ptr<Tenant> tenant = newTenant();
  ASSERT_TRUE(tenant->kernel.get());
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateBuffer(tenant->context, CL_MEM_READ_WRITE, largest + 1, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, status);
  EXPECT_TRUE(tenant->told("clCreateBuffer: " + std::to_string(largest + 1) +
                           " bytes is above CL_DEVICE_MAX_MEM_ALLOC_SIZE (" + std::to_string(largest) + ")"))
      << tenant->allMessages();
  EXPECT_EQ(runAffine(tenant->context, tenant->queue, tenant->kernel, 1), affineOnTheCpu(inputs(), 1));
}

}  // namespace
}  // namespace cl2vk::test
