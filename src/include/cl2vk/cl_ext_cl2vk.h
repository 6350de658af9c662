// cl2vk's own OpenCL queries, for tests and diagnosis (docs/runtime.md, "Environment").
// Their values lie far above the 16-bit ranges the Khronos registry gives vendors, so that no other
// implementation's query reads as one of them; an implementation that does not know one answers
// CL_INVALID_VALUE, as for any unknown query.
#pragma once

// clGetContextInfo, a cl_ulong: how many Vulkan compute pipelines (vkCreateComputePipelines) the
// context has created on all its devices so far. Counts the pipelines of kernels, which a program
// compiles once per kernel name and work-group shape, and the loop-limit probe's one pipeline when
// the context opened a CPU device (docs/runtime.md, "Loop limit").
#define CL_CONTEXT_PIPELINES_CREATED_CL2VK 0x7C2F0001

// clGetContextInfo, a cl_ulong: how many Vulkan device memory allocations (vkAllocateMemory) the
// context has made on all its devices so far: its buffers' and the staging buffers of its
// transfers, kernel argument, printf and loop-limit buffers. Released buffers' memory is recycled
// (docs/runtime.md, "Memory"), so a program that creates and releases buffers of one size, or
// transfers the same sizes again and again, adds allocations only at first.
#define CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK 0x7C2F0002
