# histoscope_precompile(TARGET [HEADER...]): precompiles, once for TARGET, the headers nearly every one of its
# sources parses: the OpenCL C++ bindings (app/engine/runtime/cl.hpp, about 1.2 s a file on the 2-core
# machine: half of a typical engine file's compile) and the standard containers, plus the HEADERs given
# (GoogleTest, about 1.8 s a file; QtCore's). On a fresh 2-core machine the build is most of ./test.sh's time.
# The app's GUI library and tests have precompiled headers of their own (app/ui, tests/ui).
function(histoscope_precompile target)
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/app/engine/runtime/cl.hpp <algorithm>
                              <functional> <map> <memory> <optional> <string> <vector> ${ARGN})
endfunction()
