// Translates an OpenCL SPIR-V module for a device described by cl2vk-opt's target flags, writes the
// Vulkan SPIR-V and lists each kernel's arguments: what a program that embeds the translator does.
//
//   translate_library <in.spv> <out.spv> [--no-int64 --target-env=vulkan1.3 ...]

#include <cl2vk/spirv.h>
#include <cl2vk/translator.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <in.spv> <out.spv> [target flags]\n", argv[0]);
    return 2;
  }
  cl2vk::Target target;
  for (int i = 3; i < argc; ++i) {
    cl2vk::Expected<bool> applied = cl2vk::applyTargetFlag(argv[i], target);
    if (!applied || !*applied) {
      std::fprintf(stderr, "%s: %s\n", argv[i], applied ? "not a target flag" : applied.error().message().c_str());
      return 2;
    }
  }

  std::ifstream in(argv[1], std::ios::binary);
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  cl2vk::Expected<std::vector<uint32_t>> words = cl2vk::readSpirvBinary(bytes);
  if (!words) {
    std::fprintf(stderr, "%s: %s\n", argv[1], words.error().message().c_str());
    return 1;
  }
  cl2vk::Expected<cl2vk::Translation> translation = cl2vk::translate(*words, target);
  if (!translation) {
    std::fprintf(stderr, "%s: %s\n", argv[1], translation.error().message().c_str());
    return 1;
  }

  std::ofstream out(argv[2], std::ios::binary);
  out.write(reinterpret_cast<const char*>(translation->spirv.data()),
            static_cast<std::streamsize>(translation->spirv.size() * sizeof(uint32_t)));
  if (!out.flush()) {
    std::fprintf(stderr, "%s: cannot write\n", argv[2]);
    return 1;
  }
  for (const cl2vk::KernelReflection& kernel : translation->reflection.kernels) {
    std::printf("kernel %s:", kernel.name.c_str());
    for (const cl2vk::KernelArgument& argument : kernel.arguments)
      std::printf(" %s %s;", cl2vk::argumentKindName(argument.kind), argument.type.c_str());
    std::printf(" %u collectives rewritten\n", kernel.collectives.collectives);
  }
  return 0;
}
