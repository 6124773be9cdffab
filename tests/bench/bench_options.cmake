cmake_minimum_required(VERSION 3.25)
# histoscope-bench --help names the tool and states the shared options with their defaults; the shared rules
# refuse bad values with exit code 2 and one line; --angle is reduced as everywhere, --strategies and
# --sampling match in any case.
execute_process(COMMAND ${BENCH} --help RESULT_VARIABLE status OUTPUT_VARIABLE help ERROR_VARIABLE errors)
if(NOT status EQUAL 0 OR NOT errors STREQUAL "")
    message(FATAL_ERROR "--help exited with ${status}: ${errors}")
endif()
string(REGEX MATCH "^[^\n]*" usage "${help}")
if(NOT usage STREQUAL "Usage: histoscope-bench [options]")
    message(FATAL_ERROR "usage line '${usage}'")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${help}")  # the descriptions are wrapped
foreach(mention "-h, --help" "--device SEL" "$HISTOSCOPE_DEVICE" "--bins N" "Default: 256." "--angle DEG"
                "reduced into (-180, 180]" "Default: 33.3." "--sampling MODE" "Default: both."
                "--repetitions N" "Default: 10.")
    string(FIND "${flat}" "${mention}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "--help does not mention '${mention}':\n${help}")
    endif()
endforeach()

foreach(bad "--angle;nan" "--angle;north" "--bins;0" "--sampling;cubic" "--filter-mode;nearest")
    execute_process(COMMAND ${BENCH} ${bad} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE errors)
    string(REGEX MATCHALL "\n" lines "${errors}")
    list(LENGTH lines count)
    list(GET bad 0 option)
    string(FIND "${errors}" "${option}" named)
    if(NOT status EQUAL 2 OR NOT count EQUAL 1 OR named EQUAL -1)
        message(FATAL_ERROR "'${bad}': exit ${status}, stderr '${errors}'")
    endif()
endforeach()

# 400 degrees is measured as 40; only nearest sampling and only the buffer strategy, named in capitals.
execute_process(COMMAND ${BENCH} --suites rotate --sizes 0.01 --patterns uniform --repetitions 1 --angle 400
                        --sampling NEAREST --strategies BUFFER --json ${OUT}
                RESULT_VARIABLE status ERROR_VARIABLE errors OUTPUT_QUIET)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "rotate run exited with ${status}: ${errors}")
endif()
file(READ ${OUT} json)
string(JSON count LENGTH "${json}" results)
if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one result (buffer nearest), got ${count}: ${json}")
endif()
string(JSON subject GET "${json}" results 0 subject)
string(JSON angle GET "${json}" results 0 angle_degrees)
if(NOT subject MATCHES "^buffer nearest" OR NOT angle MATCHES "^40(\\.0*)?$")
    message(FATAL_ERROR "result '${subject}' at ${angle} degrees")
endif()
message(STATUS "bench options checked")
