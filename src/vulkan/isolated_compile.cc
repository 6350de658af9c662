#include "vulkan/isolated_compile.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "support/settings.h"

namespace cl2vk::vulkan {
namespace {

// The status a child leaves with when something in it called exit(): its first exit handler
// (registered last) leaves at once, before the application's handlers and stdio buffers, which
// belong to the parent, run a second time.
constexpr int kExitCalled = 120;
// The status a child leaves with when `create` returned an error (the parent reports it itself).
constexpr int kCreateFailed = 121;
// What is kept of the child's stderr: its last words.
constexpr size_t kOutputKept = 4096;

void leaveAtOnce() { _exit(kExitCalled); }

uint32_t memoryAccesses(std::span<const uint32_t> spirv) {
  uint32_t count = 0;
  for (size_t at = 5; at < spirv.size();) {
    uint32_t length = spirv[at] >> 16;
    auto opcode = static_cast<spv::Op>(spirv[at] & 0xffff);
    bool atomic = opcode >= spv::Op::OpAtomicLoad && opcode <= spv::Op::OpAtomicXor;
    if (opcode == spv::Op::OpLoad || opcode == spv::Op::OpStore || opcode == spv::Op::OpCopyMemory ||
        opcode == spv::Op::OpCopyMemorySized || atomic)
      ++count;
    if (length == 0) break;  // malformed; checkComputeShader has refused such a module already
    at += length;
  }
  return count;
}

// The child's stderr up to its end of file or `deadline`; false on the deadline.
bool readUntilClosed(int fd, std::chrono::steady_clock::time_point deadline, std::string& output) {
  char chunk[1024];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd wait{fd, POLLIN, 0};
    int ready = poll(&wait, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return true;
    if (ready <= 0) continue;
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return true;
    output.append(chunk, static_cast<size_t>(got));
    if (output.size() > 2 * kOutputKept) output.erase(0, output.size() - kOutputKept);
  }
}

std::string lastWords(std::string output) {
  if (output.size() > kOutputKept) output.erase(0, output.size() - kOutputKept);
  while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) output.pop_back();
  return output.empty() ? std::string("it wrote nothing on stderr") : "its last words: \"" + output + "\"";
}

}  // namespace

bool compilesInChildFirst(const DeviceInfo& info, std::span<const uint32_t> spirv) {
  std::optional<std::string> choice = settings::read(settings::Setting::kIsolatedCompiles);
  if (choice == "always") return true;
  if (choice == "never") return false;
  return info.driverId == VK_DRIVER_ID_GOOGLE_SWIFTSHADER && memoryAccesses(spirv) > kIsolatedMemoryAccesses;
}

Status tryInChildProcess(const std::string& driver, const std::function<VkResult()>& create,
                         std::chrono::seconds limit) {
  int pipeEnds[2];
  if (pipe2(pipeEnds, O_CLOEXEC) != 0) return okStatus();
  std::fflush(nullptr);  // what the application has buffered is written once, by the parent
  pid_t pid = fork();
  if (pid < 0) {
    close(pipeEnds[0]);
    close(pipeEnds[1]);
    return okStatus();
  }
  if (pid == 0) {
    // Only this thread exists in the child; it creates the pipeline and leaves without running
    // anything of the parent's.
    dup2(pipeEnds[1], STDERR_FILENO);
    std::atexit(leaveAtOnce);
    _exit(create() == VK_SUCCESS ? 0 : kCreateFailed);
  }
  close(pipeEnds[1]);
  std::string output;
  bool ended = readUntilClosed(pipeEnds[0], std::chrono::steady_clock::now() + limit, output);
  close(pipeEnds[0]);
  if (!ended) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return okStatus();  // reaped by the application's SIGCHLD handler: unknown
  }
  if (!ended) return okStatus();
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == kCreateFailed)) return okStatus();
  std::string how;
  if (WIFSIGNALED(status)) {
    const char* description = sigdescr_np(WTERMSIG(status));
    how = "was killed by signal " + std::to_string(WTERMSIG(status)) +
          (description ? std::string(" (") + description + ")" : std::string());
  } else {
    how = WEXITSTATUS(status) == kExitCalled ? std::string("called exit()")
                                             : "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  return Error(driver + " ended the process compiling this pipeline (it " + how + "; " + lastWords(output) +
               "). The pipeline was compiled in a child process first (CL2VK_ISOLATED_COMPILES), so only this "
               "command fails; a smaller kernel (fewer memory accesses in one function) compiles");
}

}  // namespace cl2vk::vulkan
