cmake_minimum_required(VERSION 3.25)
# A device selector whose indices overflow int once aborted the bench without a word. It names no device: the
# bench says so on one line, naming the selector, and runs what needs no device.
set(selector "0:99999999999999999999")
execute_process(COMMAND ${BENCH} --device ${selector} --sizes 0.01 --patterns uniform --repetitions 1
                        --suites histogram
                RESULT_VARIABLE status OUTPUT_VARIABLE table ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "histoscope-bench exited with '${status}':\n${errors}")
endif()
string(FIND "${table}" "no OpenCL device: " at)
string(FIND "${table}" "${selector}" named)
if(at EQUAL -1 OR named EQUAL -1)
    message(FATAL_ERROR "the device problem was not reported with the selector:\n${table}")
endif()
