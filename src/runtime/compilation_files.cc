// Files, with every descriptor close-on-exec so that no child of any thread inherits one
// (compilation_files.h).
#include "runtime/compilation_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace cl2vk::runtime {
namespace {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string errnoMessage(int error) { return std::system_category().message(error); }

Status writeWholeFile(const fs::path& path, std::string_view contents) {
  FileDescriptor file(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (file.get() < 0) return Error("cannot create " + path.string() + ": " + errnoMessage(errno));
  while (!contents.empty()) {
    ssize_t written = write(file.get(), contents.data(), contents.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return Error("cannot write " + path.string() + ": " + errnoMessage(errno));
    contents.remove_prefix(static_cast<size_t>(written));
  }
  return okStatus();
}

Expected<std::string> readWholeFile(const fs::path& path) {
  FileDescriptor file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return Error("cannot open " + path.string() + ": " + errnoMessage(errno));
  std::string contents;
  char buffer[65536];
  while (true) {
    ssize_t count = read(file.get(), buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return Error("cannot read " + path.string() + ": " + errnoMessage(errno));
    if (count == 0) return contents;
    contents.append(buffer, static_cast<size_t>(count));
  }
}

}  // namespace cl2vk::runtime
