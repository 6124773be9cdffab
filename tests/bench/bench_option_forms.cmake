cmake_minimum_required(VERSION 3.25)
# The forms of histoscope-bench's options (issue 20: one --json; issue 21, item 11): --opt=value as the CLI
# takes it, --json on stdout, --json=PATH and --json-out PATH (and the older --json PATH) to a file; a size that
# is not a number (nan) and a FIFO as --raw-rgba refused with one line, not measured or waited on.
set(quick --suites rotate --sizes 0.01 --patterns uniform --repetitions 1 --strategies buffer --sampling nearest)

function(expect_one_line status errors code mention)
    string(REGEX MATCHALL "\n" lines "${errors}")
    list(LENGTH lines count)
    string(FIND "${errors}" "${mention}" named)
    if(NOT status EQUAL code OR NOT count EQUAL 1 OR named EQUAL -1)
        message(FATAL_ERROR "expected exit ${code} and one line naming '${mention}', got ${status}: '${errors}'")
    endif()
endfunction()

function(expect_angle json expected what)
    string(JSON angle GET "${json}" results 0 angle_degrees)
    if(NOT angle MATCHES "^${expected}(\\.0*)?$")
        message(FATAL_ERROR "${what}: angle ${angle}, not ${expected}: ${json}")
    endif()
endfunction()

foreach(nan "nan" "-nan" "1,nan")
    execute_process(COMMAND ${BENCH} --sizes ${nan} RESULT_VARIABLE status OUTPUT_VARIABLE out
                    ERROR_VARIABLE errors TIMEOUT 20)
    expect_one_line("${status}" "${errors}" 2 "--sizes")
endforeach()

# --angle=-45 (the form the help gives for negative angles) and --json=PATH.
file(REMOVE ${WORK}/forms-equals.json)
execute_process(COMMAND ${BENCH} ${quick} --angle=-45 --json=${WORK}/forms-equals.json RESULT_VARIABLE status
                OUTPUT_VARIABLE table ERROR_VARIABLE errors TIMEOUT 60)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "--angle=-45 --json=PATH exited with ${status}: ${errors}")
endif()
file(READ ${WORK}/forms-equals.json json)
expect_angle("${json}" -45 "--json=PATH")
string(FIND "${table}" "buffer nearest" tabled)
if(tabled EQUAL -1)
    message(FATAL_ERROR "--json=PATH: no table on stdout: ${table}")
endif()

# --json alone: the JSON on stdout, the table on stderr.
execute_process(COMMAND ${BENCH} ${quick} --angle 30 --json RESULT_VARIABLE status OUTPUT_VARIABLE json
                ERROR_VARIABLE table TIMEOUT 60)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "--json exited with ${status}: ${table}")
endif()
expect_angle("${json}" 30 "--json")

# --json-out PATH, and the older --json PATH.
foreach(form "--json-out" "--json")
    file(REMOVE ${WORK}/forms-path.json)
    execute_process(COMMAND ${BENCH} ${quick} --angle 20 ${form} ${WORK}/forms-path.json RESULT_VARIABLE status
                    OUTPUT_QUIET ERROR_VARIABLE errors TIMEOUT 60)
    if(NOT status EQUAL 0)
        message(FATAL_ERROR "${form} PATH exited with ${status}: ${errors}")
    endif()
    file(READ ${WORK}/forms-path.json json)
    expect_angle("${json}" 20 "${form} PATH")
endforeach()

# A value where none is taken.
execute_process(COMMAND ${BENCH} --quick=yes RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE errors
                TIMEOUT 20)
expect_one_line("${status}" "${errors}" 2 "--quick")

# A FIFO as the raw input: refused, not waited on (nothing ever writes to it).
set(fifo "${WORK}/forms-raw.fifo")
file(REMOVE "${fifo}")
execute_process(COMMAND mkfifo "${fifo}")
execute_process(COMMAND ${BENCH} --raw-rgba=${fifo} --width 2 --height 2 --suites histogram --repetitions 1
                RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE errors TIMEOUT 20)
expect_one_line("${status}" "${errors}" 3 "${fifo}: not a regular file")
file(REMOVE "${fifo}")
message(STATUS "bench option forms checked")
