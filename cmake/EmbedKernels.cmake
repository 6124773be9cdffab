# Turns every kernels/*.cl into one C++ source holding the texts as raw string literals, so the engine
# carries its kernels and needs no files at run time. Run as: cmake -DOUT=... -DSOURCES="a.cl;b.cl" -P
set(body "// Generated from kernels/*.cl by cmake/EmbedKernels.cmake: edit the .cl files, not this one.\n")
string(APPEND body "#include \"engine/runtime/kernel_sources.hpp\"\n\nnamespace hs {\n\nconst std::vector<KernelSource>& kernelSources() {\n")
string(APPEND body "    static const std::vector<KernelSource> sources = {\n")
foreach(path IN LISTS SOURCES)
    get_filename_component(name "${path}" NAME_WE)
    file(READ "${path}" text)
    string(APPEND body "        {\"${name}\", R\"HSCL(${text})HSCL\"},\n")
endforeach()
string(APPEND body "    };\n    return sources;\n}\n\n}  // namespace hs\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
