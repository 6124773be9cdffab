# What a system install needs besides the programs (man pages made from their --help, the CLI's bash
# completion, the copyright file) and the Debian package: `cpack -G DEB` in the build folder, or
# scripts/package.sh, makes histoscope_<version>_amd64.deb from the install rules.

find_program(HELP2MAN help2man)
if(HELP2MAN)
    set(man_pages "")
    function(histoscope_man_page target name)
        set(page ${CMAKE_BINARY_DIR}/man/${target}.1.gz)
        add_custom_command(
            OUTPUT ${page}
            COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${HELP2MAN} -DPROGRAM=$<TARGET_FILE:${target}> "-DNAME=${name}"
                    -DVERSION=${PROJECT_VERSION} -DOUTPUT=${page} ${ARGN} -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
            DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
            COMMENT "Writing the man page of ${target}"
            VERBATIM)
        set(man_pages ${man_pages} ${page} PARENT_SCOPE)
    endfunction()
    if(TARGET histoscope)
        histoscope_man_page(histoscope "workbench for OpenCL image kernels: histograms, rotation, convolution and their timings")
    endif()
    if(TARGET histoscope-cli)
        histoscope_man_page(histoscope-cli "run HistoScope's OpenCL image kernels from the command line" -DSUBCOMMANDS=ON)
    endif()
    if(TARGET histoscope-bench)
        histoscope_man_page(histoscope-bench "measure HistoScope's OpenCL image kernels")
    endif()
    add_custom_target(histoscope_man_pages ALL DEPENDS ${man_pages})
    install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
    message(STATUS "help2man not found: no man pages (scripts/dependencies.sh installs it)")
endif()

if(TARGET histoscope-cli)
    set(completion ${CMAKE_BINARY_DIR}/completion/histoscope-cli)
    add_custom_command(
        OUTPUT ${completion}
        COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:histoscope-cli> -DOUTPUT=${completion}
                -P ${PROJECT_SOURCE_DIR}/cmake/BashCompletion.cmake
        DEPENDS histoscope-cli ${PROJECT_SOURCE_DIR}/cmake/BashCompletion.cmake
        COMMENT "Writing the bash completion of histoscope-cli"
        VERBATIM)
    add_custom_target(histoscope_completion ALL DEPENDS ${completion})
    install(FILES ${completion} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
endif()

install(FILES ${PROJECT_SOURCE_DIR}/resources/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/histoscope)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME histoscope)
set(CPACK_PACKAGE_VENDOR "HistoScope developers")
set(CPACK_PACKAGE_CONTACT "HistoScope developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench for OpenCL image kernels")
# Lines of at most 80 columns, as Debian's description field wants them.
set(CPACK_PACKAGE_DESCRIPTION
    "HistoScope opens an image, runs OpenCL kernels on it (histograms by several
strategies, rotation, convolution) on any OpenCL device and shows the
histogram, the processed image and the time every kernel took.
histoscope-cli runs the same engine from scripts, histoscope-bench measures it.
License: GPL-3.0-or-later.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# The libraries the programs link, from the binaries (dpkg-shlibdeps); below, what Qt loads at run time and no
# binary names: the image formats beyond PNG, JPEG, BMP and GIF (TIFF, WebP). The platform plugins the app
# opens its window with (xcb, offscreen) come with libqt6gui6, which the binaries name.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-image-formats-plugins")
# An OpenCL driver: without one every program runs but lists no device. PoCL runs on any CPU.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, fonts-dejavu-core")
# The device simulator `histoscope-cli check` and the kernel lab's Check run a kernel under; without it they say
# so and check nothing.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "oclgrind")
include(CPack)
