// The source compiler's tools, run with posix_spawn (child_process.h).
#include "runtime/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "runtime/compilation_files.h"

namespace cl2vk::runtime {
namespace {

// posix_spawn's file actions and attributes, released on every path out.
class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attributes_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() {
    posix_spawnattr_destroy(&attributes_);
    posix_spawn_file_actions_destroy(&actions_);
  }

  // The child runs in `directory` with stdin from /dev/null and stdout and stderr into `outputPath`.
  // It inherits no other descriptor, not even those the application left without close-on-exec
  // (a pipe held open by clang would delay the application's end of file), and starts with no
  // signal blocked: a runtime thread that blocks some should not change how clang runs. Returns 0
  // or the first error number.
  int prepare(const fs::path& directory, const std::string& outputPath) {
    sigset_t noSignals;
    sigemptyset(&noSignals);
    for (int error : {posix_spawn_file_actions_addchdir_np(&actions_, directory.c_str()),
                      posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0),
                      posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, outputPath.c_str(),
                                                       O_WRONLY | O_CREAT | O_TRUNC, 0600),
                      posix_spawn_file_actions_adddup2(&actions_, STDOUT_FILENO, STDERR_FILENO),
                      posix_spawn_file_actions_addclosefrom_np(&actions_, STDERR_FILENO + 1),
                      posix_spawnattr_setsigmask(&attributes_, &noSignals),
                      posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK)}) {
      if (error) return error;
    }
    return 0;
  }
  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attributes() const { return &attributes_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

std::string describeExit(const fs::path& tool, int status) {
  if (WIFEXITED(status)) return tool.string() + " exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* description = sigdescr_np(WTERMSIG(status));
    return tool.string() + " was killed by signal " + std::to_string(WTERMSIG(status)) +
           (description ? std::string(" (") + description + ")" : std::string());
  }
  return tool.string() + " stopped with wait status " + std::to_string(status);
}

}  // namespace

Status runTool(const fs::path& tool, const std::vector<std::string>& arguments, const fs::path& directory,
               std::string& log) {
  std::string outputPath = (directory / kToolOutput).string();
  std::string toolPath = tool.string();
  SpawnSetup setup;
  if (int error = setup.prepare(directory, outputPath)) {
    return Error("cannot prepare to run " + toolPath + ": " + errnoMessage(error));
  }

  std::vector<char*> argv = {toolPath.data()};
  std::vector<std::string> argumentCopies = arguments;  // posix_spawn's argv is not const
  for (std::string& argument : argumentCopies) argv.push_back(argument.data());
  argv.push_back(nullptr);

  pid_t pid;
  if (int error = posix_spawn(&pid, toolPath.c_str(), setup.actions(), setup.attributes(), argv.data(), environ)) {
    return Error("cannot run " + toolPath + ": " + errnoMessage(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Error("cannot wait for " + toolPath + ": " + errnoMessage(errno));
  }
  Expected<std::string> output = readWholeFile(outputPath);
  if (!output) return output.error();
  log += *output;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return okStatus();
  return Error(describeExit(tool, status));
}

}  // namespace cl2vk::runtime
