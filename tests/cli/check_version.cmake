# Every program answers --version with "<program> <VERSION> (<commit>)", VERSION the project's version in
# CMake and the commit HEAD's short hash, "-dirty" when the checkout has changes. The header's script says
# "unknown" outside a checkout of its source tree (a tarball): WORK, in the build folder, is one.
#
#     cmake -DPROGRAMS=<a;b;c> -DVERSION=<version> -DSCRIPT=<cmake/Version.cmake> -DWORK=<folder> -P check_version.cmake
string(REPLACE "." "\\." version "${VERSION}")
foreach(program IN LISTS PROGRAMS)
    get_filename_component(name ${program} NAME)
    execute_process(COMMAND ${program} --version RESULT_VARIABLE result OUTPUT_VARIABLE line ERROR_VARIABLE error)
    if(NOT result EQUAL 0 OR NOT line MATCHES "^${name} ${version} \\(([0-9a-f]+(-dirty)?|unknown)\\)\n$")
        message(FATAL_ERROR "${name} --version: exit ${result}, '${line}' ${error}")
    endif()
endforeach()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
find_program(GIT git)
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE=${WORK} -DVERSION=${VERSION} -DOUTPUT=${WORK}/version.hpp
                        -DGIT=${GIT} -P ${SCRIPT} RESULT_VARIABLE result)
file(READ ${WORK}/version.hpp header)
if(NOT result EQUAL 0 OR NOT header MATCHES "\n#define HISTOSCOPE_VERSION \"${version}\"\n"
   OR NOT header MATCHES "\n#define HISTOSCOPE_COMMIT \"unknown\"\n")
    message(FATAL_ERROR "outside a checkout the header should name the version and an unknown commit:\n${header}")
endif()
