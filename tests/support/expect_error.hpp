#pragma once
// The message of the exception an action throws, for tests (engine and io alike) that check what a refusal
// says.
#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace hs::test {

// The what() of the `Exception` that `action` throws; a test failure (and "") when it throws nothing.
template <typename Exception>
std::string messageOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const Exception& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected an exception";
    return {};
}

// Whether `text` contains `part`.
inline bool mentions(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace hs::test
