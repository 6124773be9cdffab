# Makes the Debian package of the build tree BUILD with CPack into a fresh OUT and checks it with dpkg-deb: its
# name, its fields (section, maintainer, dependencies computed from the binaries plus Qt's image formats) and its
# files (the programs, the desktop entry and icon, the man pages, the CLI's completion).
#
#     cmake -DBUILD=<build folder> -DOUT=<folder> -DVERSION=<project version> -P check_deb.cmake
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DESTDIR cpack -G DEB --config ${BUILD}/CPackConfig.cmake -B ${OUT}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
set(deb ${OUT}/histoscope_${VERSION}_amd64.deb)
if(NOT result EQUAL 0 OR NOT EXISTS ${deb})
    message(FATAL_ERROR "cpack made no ${deb} (exit ${result}):\n${output}")
endif()

function(field name pattern)
    execute_process(COMMAND dpkg-deb --field ${deb} ${name} OUTPUT_VARIABLE value RESULT_VARIABLE result)
    if(NOT result EQUAL 0 OR NOT value MATCHES "${pattern}")
        message(FATAL_ERROR "${name}: '${value}' does not match '${pattern}'")
    endif()
endfunction()
field(Package "^histoscope\n$")
field(Version "^${VERSION}\n$")
field(Architecture "^amd64\n$")
field(Section "^graphics\n$")
field(Maintainer "^HistoScope developers")
field(Description "GPL-3.0-or-later")
# Found by dpkg-shlibdeps in the binaries: OpenCL's loader, Qt, QCustomPlot, GLEW, the codecs, SQLite (the run
# archive), the C++ runtime.
foreach(library ocl-icd-libopencl1 libqt6core6 libqt6gui6 libqt6widgets6 libqt6openglwidgets6 libqt6svg6
                libqcustomplot2.1-qt6 libglew2.2 libpng16-16 libjpeg62-turbo libtiff6 libwebp7 libgif7
                libsqlite3-0 libstdc\\+\\+6)
    field(Depends "(^|[ ,|])${library}[ ,\n]")
endforeach()
field(Depends "(^|, )qt6-image-formats-plugins(,|\n)")
field(Recommends "pocl-opencl-icd")
field(Suggests "^oclgrind\n$")

execute_process(COMMAND dpkg-deb --contents ${deb} OUTPUT_VARIABLE contents RESULT_VARIABLE result)
foreach(path bin/histoscope bin/histoscope-cli bin/histoscope-bench share/applications/histoscope.desktop
             share/icons/hicolor/scalable/apps/histoscope.svg share/histoscope/sample.png
             share/man/man1/histoscope.1.gz share/man/man1/histoscope-cli.1.gz share/man/man1/histoscope-bench.1.gz
             share/bash-completion/completions/histoscope-cli share/doc/histoscope/copyright)
    string(FIND "${contents}" " ./usr/${path}\n" at)
    if(NOT result EQUAL 0 OR at EQUAL -1)
        message(FATAL_ERROR "the package lacks /usr/${path}:\n${contents}")
    endif()
endforeach()
# Nothing of the build (tests, the sample's generator, static libraries) and nothing outside /usr.
if(contents MATCHES " \\./usr/(lib|include)/" OR contents MATCHES " \\./(etc|opt|home|root|tmp|work)/"
   OR contents MATCHES "_test|sample-generator")
    message(FATAL_ERROR "the package holds more than the programs and their files:\n${contents}")
endif()
