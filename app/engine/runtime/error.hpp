#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace hs {

// What went wrong, in the terms the CLI maps to exit codes and the GUI to dialogs.
enum class ErrorKind { Usage, Input, OpenCl };

class Error : public std::runtime_error {
  public:
    Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const noexcept { return kind_; }

  private:
    ErrorKind kind_;
};

class UsageError : public Error {
  public:
    explicit UsageError(const std::string& message) : Error(ErrorKind::Usage, message) {}
};

// A file that is missing, unreadable, corrupt or too large. The message names the file.
class InputError : public Error {
  public:
    explicit InputError(const std::string& message) : Error(ErrorKind::Input, message) {}
};

// An OpenCL failure: no device, a build failure (with the device's build log), or a failing call.
class OpenClError : public Error {
  public:
    // `call` is the API call or step that failed, `code` the OpenCL status (0 when there is none).
    OpenClError(std::string call, int code, std::string detail = {}, std::string buildLog = {});

    const std::string& call() const noexcept { return call_; }
    int code() const noexcept { return code_; }
    const std::string& buildLog() const noexcept { return buildLog_; }

  private:
    std::string call_;
    int code_;
    std::string buildLog_;
};

// "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR(-12345)" for codes the spec does not name.
std::string clErrorName(int code);

// Process exit code for an error kind: 2 usage, 3 input, 4 OpenCL (see ARCHITECTURE.md).
int exitCodeFor(ErrorKind kind) noexcept;

// A problem that does not stop the work (a program cache that is not trusted, so not used), as one line for
// the user. The default sink writes "histoscope: <line>" to stderr; the CLI, whose stderr captures the
// libraries' diagnostics, sends it where its own error lines go.
using WarningSink = void (*)(std::string_view line);
void setWarningSink(WarningSink sink);
void warn(std::string_view line);

// Runs `body`, turning the bindings' cl::Error into OpenClError that names the call and the code, and
// prefixing `where` (a device or operation name) so the one-line message says what failed.
template <typename Body>
auto withClErrors(std::string_view where, Body&& body) -> decltype(body());

}  // namespace hs

#include "engine/runtime/error_impl.hpp"
