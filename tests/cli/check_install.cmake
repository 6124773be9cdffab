# Installs the build tree BUILD into a fresh PREFIX and checks the files a desktop install needs: the three
# programs, their man pages, the CLI's bash completion, the sample, the desktop entry and its icon.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
set(programs histoscope histoscope-cli histoscope-bench)
set(expected share/histoscope/sample.png share/applications/histoscope.desktop
             share/icons/hicolor/scalable/apps/histoscope.svg share/bash-completion/completions/histoscope-cli
             share/doc/histoscope/copyright)
foreach(program IN LISTS programs)
    list(APPEND expected bin/${program} share/man/man1/${program}.1.gz)
endforeach()
foreach(file IN LISTS expected)
    if(NOT EXISTS ${PREFIX}/${file})
        message(FATAL_ERROR "not installed: ${file}")
    endif()
endforeach()

# The programs find their libraries where the system keeps them, not in this build.
foreach(program IN LISTS programs)
    execute_process(COMMAND readelf --dynamic ${PREFIX}/bin/${program} OUTPUT_VARIABLE dynamic RESULT_VARIABLE result)
    if(NOT result EQUAL 0 OR dynamic MATCHES "R(UN)?PATH")
        message(FATAL_ERROR "${program} is installed with a library search path:\n${dynamic}")
    endif()
endforeach()

# Each man page is the program's help; the CLI's also has every command's, one subsection each.
foreach(program IN LISTS programs)
    execute_process(COMMAND gzip -dc ${PREFIX}/share/man/man1/${program}.1.gz OUTPUT_VARIABLE page
                    RESULT_VARIABLE result)
    string(FIND "${page}" "\n.SH NAME\n${program} \\- " name)
    string(FIND "${page}" "\\-\\-help" help_option)  # roff writes the dashes of options as \-
    if(NOT result EQUAL 0 OR name EQUAL -1 OR help_option EQUAL -1)
        message(FATAL_ERROR "the man page of ${program} is not its help:\n${page}")
    endif()
    if(program STREQUAL "histoscope-cli")
        set(cli_page "${page}")
    endif()
endforeach()
execute_process(COMMAND ${PREFIX}/bin/histoscope-cli --help OUTPUT_VARIABLE overview)
string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" commands "${overview}")
list(TRANSFORM commands STRIP)
if(NOT commands MATCHES "histogram")
    message(FATAL_ERROR "histoscope-cli --help lists no commands:\n${overview}")
endif()
foreach(command IN LISTS commands)
    string(REPLACE "-" "\\-" roff_command "${command}")
    string(FIND "${cli_page}" "\n.SS ${roff_command}\n" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "the man page of histoscope-cli lacks the command ${command}")
    endif()
endforeach()

# The completion, as bash runs it on <Tab>: the commands after the program's name, a command's options after
# a dash.
function(complete words expected)
    list(LENGTH words count)
    math(EXPR last "${count} - 1")
    list(JOIN words " " line)
    execute_process(COMMAND bash -c "source \"$1\"; COMP_WORDS=(${line}); COMP_CWORD=${last}; _histoscope_cli; \
                                     printf '%s\\n' \"\${COMPREPLY[@]}\""
                            complete ${PREFIX}/share/bash-completion/completions/histoscope-cli
                    OUTPUT_VARIABLE offered RESULT_VARIABLE result)
    string(REPLACE "\n" ";" offered "${offered}")
    list(FILTER offered EXCLUDE REGEX "^$")
    if(NOT result EQUAL 0 OR NOT offered STREQUAL "${expected}")
        message(FATAL_ERROR "completing '${line}' offered '${offered}', expected '${expected}'")
    endif()
endfunction()
complete("histoscope-cli;histo" "histogram")
complete("histoscope-cli;histogram;--bi" "--bins")
complete("histoscope-cli;pipeline;--ign" "--ignore-transparent")
complete("histoscope-cli;--vers" "--version")

foreach(program IN LISTS programs)
    execute_process(COMMAND ${PREFIX}/bin/${program} --version OUTPUT_VARIABLE line RESULT_VARIABLE result)
    if(NOT result EQUAL 0 OR NOT line MATCHES "^${program} [0-9]")
        message(FATAL_ERROR "the installed ${program} --version said '${line}' (exit ${result})")
    endif()
endforeach()
file(READ ${PREFIX}/share/applications/histoscope.desktop entry)
if(NOT entry MATCHES "\nExec=histoscope " OR NOT entry MATCHES "\nIcon=histoscope\n")
    message(FATAL_ERROR "the desktop entry does not start histoscope with its icon")
endif()
execute_process(COMMAND ${PREFIX}/bin/histoscope-cli histogram ${PREFIX}/share/histoscope/sample.png --strategy serial
                        --csv RESULT_VARIABLE result OUTPUT_VARIABLE csv ERROR_VARIABLE error)
# The table follows the "# key: value" lines of its context.
string(FIND "${csv}" "\n# image: ${PREFIX}/share/histoscope/sample.png\n" named)
if(NOT result EQUAL 0 OR NOT csv MATCHES "^# [^\n]*\n(# [^\n]*\n)*bin,lower,upper," OR named EQUAL -1)
    message(FATAL_ERROR "the installed CLI cannot read the installed sample: ${result} ${error}")
endif()
