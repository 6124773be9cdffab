// The GUI tests' program (ui_test_main.hpp): `ui_tests NAME [QtTest's arguments]` runs the test of
// tests/ui/NAME.cpp; without a known NAME it lists the tests and exits with 2.
#include <cstdio>

#include "ui_test_main.hpp"

int main(int argc, char* argv[]) {
    const auto& tests = hs::ui::test::uiTests();
    const auto test = argc > 1 ? tests.find(argv[1]) : tests.end();
    if (test == tests.end()) {
        std::fprintf(stderr, "ui_tests: %s%s; the tests are:", argc > 1 ? "no GUI test " : "name a GUI test",
                     argc > 1 ? argv[1] : "");
        for (const auto& entry : tests) std::fprintf(stderr, " %s", entry.first.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    // QtTest sees the program's name and the arguments after the test's name.
    argv[1] = argv[0];
    return test->second(argc - 1, argv + 1);
}
