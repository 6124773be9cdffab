// What the plain-OpenCL experiment harnesses (bowfast_variants.cpp, scope_probe.cpp) share, header-only as
// each is built by one g++ line on the GPU machine: an OpenCL error ends the run with exit code 4, naming the
// call; a kernel file that cannot be read, with exit code 2.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <CL/cl.h>

inline void check(cl_int status, const char* what) {
    if (status != CL_SUCCESS) {
        std::fprintf(stderr, "OpenCL error %d at %s\n", status, what);
        std::exit(4);
    }
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(2);
    }
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
