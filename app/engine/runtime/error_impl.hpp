#pragma once
// The template part of error.hpp, which includes it at its end: kept apart so that a reader of error.hpp
// finds the error types without the OpenCL bindings this part needs.

#include "engine/runtime/cl.hpp"

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
