# Installs the build tree BUILD into a fresh PREFIX and checks the files a desktop install needs.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
foreach(expected bin/histoscope-cli share/histoscope/sample.png share/applications/histoscope.desktop
                 share/icons/hicolor/scalable/apps/histoscope.svg)
    if(NOT EXISTS ${PREFIX}/${expected})
        message(FATAL_ERROR "not installed: ${expected}")
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
