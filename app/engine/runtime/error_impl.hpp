#pragma once
// Template part of error.hpp; kept apart so error.hpp stays free of the OpenCL headers' weight for readers.

#include "runtime/cl.hpp"

namespace hs {

template <typename Body>
auto withClErrors(std::string_view where, Body&& body) -> decltype(body()) {
    try {
        return body();
    } catch (const cl::Error& e) {
        throw OpenClError(e.what(), e.err(), std::string(where));
    }
}

}  // namespace hs
