#pragma once
// What Oclgrind (the OpenCL device simulator `histoscope-cli check` runs a kernel under) reports in its --log
// file: one finding per paragraph, its first line what went wrong ("Invalid write of size 4 at global memory
// address 0x..."), then tab-indented details, among them "Kernel: NAME" and "At line 9 (column 45) of
// input.cl:" where it knows the source line. tests/data/oclgrind_logs/ keeps a real log. The address is left
// out of a finding (the simulator's own, and different for each work-item that makes the same fault).

#include <string>
#include <string_view>
#include <vector>

namespace hs::lab {

struct Finding {
    int line = 0;  // 1-based source line; 0: none given (an API error)
    std::string message;
    std::string kernel;  // empty: none given

    bool operator==(const Finding&) const = default;
};

// The findings of `log`, in order, each (line, message) once: a faulty access of every work-item is one
// finding to the user.
std::vector<Finding> parseOclgrindLog(std::string_view log);

}  // namespace hs::lab
