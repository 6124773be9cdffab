# Writes a program's man page, gzipped as Debian wants it, from its own --help (cmake -P, at build time):
#
#     cmake -DHELP2MAN=<help2man> -DPROGRAM=<executable> -DNAME=<one line for NAME> -DVERSION=<version>
#           -DOUTPUT=<page.1.gz> [-DSUBCOMMANDS=ON] -P ManPage.cmake
#
# help2man turns --help into the page. With SUBCOMMANDS (histoscope-cli) a COMMANDS section follows with each
# command's own --help, the commands taken from the lines of the overview that name them ("  NAME ARGS").
# The version is given rather than read from --version, which also names the commit: the page then changes
# only when the help does.
get_filename_component(program_name ${PROGRAM} NAME)
set(include ${OUTPUT}.h2m)
set(sections "[SEE ALSO]\nhistoscope(1), histoscope-cli(1), histoscope-bench(1)\n")

# roff: a backslash is an escape, a line starting with a dot or quote a request, and "-" may print as a
# hyphen that cannot be pasted into a shell.
function(roff_text text out)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

if(SUBCOMMANDS)
    execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE overview RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${program_name} --help failed: ${result}")
    endif()
    string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" commands "${overview}")
    string(APPEND sections "[COMMANDS]\n")
    foreach(command IN LISTS commands)
        string(STRIP "${command}" command)
        execute_process(COMMAND ${PROGRAM} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE result)
        if(NOT result EQUAL 0)
            message(FATAL_ERROR "${program_name} ${command} --help failed: ${result}")
        endif()
        roff_text("${help}" help)
        roff_text("${command}" heading)
        string(APPEND sections ".SS ${heading}\n.nf\n${help}.fi\n")
    endforeach()
endif()
file(WRITE ${include} "${sections}")

get_filename_component(page ${OUTPUT} NAME_WLE)
set(page ${OUTPUT}.tmp/${page})
file(MAKE_DIRECTORY ${OUTPUT}.tmp)
execute_process(COMMAND ${HELP2MAN} --no-info --section=1 --name=${NAME} --version-string=${VERSION}
                        --source=HistoScope --manual=HistoScope --include=${include} --output=${page} ${PROGRAM}
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "help2man ${program_name} failed: ${result}")
endif()
# -n: no name or time stamp in the gzip header, so the same page gives the same bytes.
execute_process(COMMAND gzip -9nc ${page} OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "gzip ${page} failed: ${result}")
endif()
file(REMOVE_RECURSE ${OUTPUT}.tmp ${include})
