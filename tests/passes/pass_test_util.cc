#include "pass_test_util.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>

#include "ir/validate.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

// Renumbers the ids that are still numbers (%12) in order of first appearance: %1, %2 ...
std::string renumberIds(const std::string& text) {
  std::map<std::string, std::string> renamed;
  std::string result;
  for (size_t i = 0; i < text.size();) {
    bool numericId = text[i] == '%' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!numericId) {
      result += text[i++];
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    auto [entry, added] = renamed.try_emplace(text.substr(i, end - i), "%" + std::to_string(renamed.size() + 1));
    result += entry->second;
    i = end;
  }
  return result;
}

}  // namespace

std::string canonicalAssembly(const ir::Module& module) { return canonical(renumberIds(disassemble(module))); }

std::string canonicalAssembly(const std::string& text) {
  std::unique_ptr<ir::Module> module = assemble(text);
  return module ? canonicalAssembly(*module) : "";
}

std::string PassRun::text() const { return module ? canonicalAssembly(*module) : "error: " + error; }

PassRun runPass(const std::string& pass, const std::string& before, const Target& target) {
  PassRun run;
  run.context.target = target;
  const PassInfo* info = nullptr;
  for (const PassInfo& registered : registeredPasses()) {
    if (registered.name == pass) info = &registered;
  }
  if (!info) {
    ADD_FAILURE() << "no pass is registered as '" << pass << "'";
    run.error = "no such pass";
    return run;
  }
  std::unique_ptr<ir::Module> module = assemble(before);
  if (!module) {
    run.error = "the input does not assemble";
    return run;
  }
  Expected<PassResult> result = info->run(*module, run.context);
  if (result) {
    run.module = std::move(module);
  } else {
    run.error = result.error().message();
  }
  return run;
}

PassRun expectPassOutput(const std::string& pass, const std::string& before, const std::string& after,
                         const Target& target, std::optional<spv_target_env> validFor) {
  PassRun run = runPass(pass, before, target);
  EXPECT_EQ(run.text(), canonicalAssembly(after)) << "--" << pass;
  if (run.module && validFor) {
    Status valid = ir::validate(*run.module, *validFor);
    EXPECT_TRUE(valid.ok()) << valid.error().message();
  }
  return run;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace cl2vk::test
