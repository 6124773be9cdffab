#pragma once
// Every GUI test (tests/ui/*_test.cpp) is linked into one program, ui_tests, whose main (ui_tests_main.cpp)
// runs the test its first argument names: `ui_tests shell_launch_test [QtTest's arguments]`. One program
// instead of one per test spares the build 33 moc steps and links. HISTOSCOPE_UI_TEST(Class) stands where
// QTEST_MAIN would and does what it does (QApplication, the class's initMain, QTest::qExec), under the name
// of its file.

#include <QtTest/QtTest>
#include <map>
#include <string>
#include <string_view>

namespace hs::ui::test {

using UiTestMain = int (*)(int argc, char* argv[]);

// The registered tests by name: their file's, without folder and extension.
inline std::map<std::string, UiTestMain>& uiTests() {
    static std::map<std::string, UiTestMain> tests;
    return tests;
}

struct UiTestRegistration {
    UiTestRegistration(std::string_view file, UiTestMain main) {
        file.remove_prefix(file.find_last_of('/') + 1);
        uiTests().emplace(file.substr(0, file.find('.')), main);
    }
};

}  // namespace hs::ui::test

#define HISTOSCOPE_UI_TEST(TestObject)                                               \
    namespace {                                                                      \
    int uiTestMain(int argc, char* argv[]) {                                         \
        QTest::Internal::callInitMain<TestObject>();                                 \
        QTEST_MAIN_SETUP()                                                           \
        TestObject tc;                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                   \
        return QTest::qExec(&tc, argc, argv);                                        \
    }                                                                                \
    const hs::ui::test::UiTestRegistration uiTestRegistration(__FILE__, uiTestMain); \
    }
