// The CLI captures what drivers print on stderr (issue 12, item 7), but whatever the process says as it dies
// must still reach the user's terminal: the driver's last line, a sanitizer's report with its stack, a leak
// report at exit. The only OpenCL driver here is tests/cli/fatal_test_icd.cpp, loaded into histoscope-cli's
// own process, which commits the fault a test names. In the sanitizer build (./test.sh --sanitize) the faults
// raise genuine AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer reports inside the CLI.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <ostream>
#include <string>
#include <vector>

namespace hs {
namespace {

// The tests are built with the CLI's flags: AddressSanitizer here means the sanitizer build.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif

struct Fault {
    const char* name;      // FATAL_TEST_DRIVER_FAULT
    bool needsSanitizers;  // without them the fault goes unnoticed (and the driver returns no platform)
    const char* sanitizedReport;  // the report's own words in the sanitizer build
};

const Fault kFaults[] = {
    {"abort", false, ""},
    {"wild-read", false, "ERROR: AddressSanitizer: SEGV on unknown address"},
    {"heap-overflow", true, "ERROR: AddressSanitizer: heap-buffer-overflow"},
    {"signed-overflow", true, "runtime error: signed integer overflow"},
    {"leak", true, "ERROR: LeakSanitizer: detected memory leaks"},
};

struct Case {
    Fault fault;
    bool abortOnError;  // abort_on_error: a sanitizer ends the process with abort() (1) or with _exit (0)
};

// What ctest's name of a case shows (gtest_discover_tests appends the parameter): its fault and ending, not
// the struct's bytes, whose pointers change from build to build.
void PrintTo(const Case& what, std::ostream* out) {
    *out << what.fault.name << (what.abortOnError ? ", abort" : ", exit");
}

std::vector<Case> cases() {
    std::vector<Case> all;
    for (const Fault& fault : kFaults)
        for (const bool abortOnError : {true, false}) all.push_back({fault, abortOnError});
    return all;
}

struct Died {
    QProcess::ExitStatus status;
    int exitCode;
    QByteArray err;
};

Died runWithFaultyDriver(const Case& what) {
    QTemporaryDir vendors;
    QFile icd(vendors.filePath("fatal.icd"));
    EXPECT_TRUE(icd.open(QIODevice::WriteOnly));
    icd.write(HISTOSCOPE_FATAL_TEST_ICD "\n");
    icd.close();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("HISTOSCOPE_VERBOSE");  // the drivers' stderr captured, as a user runs the CLI
    environment.insert("OCL_ICD_VENDORS", vendors.path());
    environment.insert("FATAL_TEST_DRIVER_FAULT", what.fault.name);
    // Each runtime reads its own options (GCC links UBSan apart from ASan).
    const QString abortOnError = what.abortOnError ? "abort_on_error=1" : "abort_on_error=0";
    environment.insert("ASAN_OPTIONS", abortOnError);
    environment.insert("UBSAN_OPTIONS", "print_stacktrace=1:" + abortOnError);
    // The suite's LeakSanitizer suppressions name the ICD loader, which is on the leaking block's stack.
    environment.remove("LSAN_OPTIONS");
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(HISTOSCOPE_CLI, {"strategies"});
    EXPECT_TRUE(process.waitForFinished(120'000));
    return {process.exitStatus(), process.exitCode(), process.readAllStandardError()};
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string name = std::string(info.param.fault.name) + (info.param.abortOnError ? "_abort" : "_exit");
    for (char& c : name)
        if (c == '-') c = '_';
    return name;
}

class FatalMessages : public ::testing::TestWithParam<Case> {};

TEST_P(FatalMessages, ReachStderrThroughTheCapture) {
    const Case& what = GetParam();
    if (!kSanitizedBuild && what.fault.needsSanitizers)
        GTEST_SKIP() << what.fault.name << " is reported only by the sanitizer build (./test.sh --sanitize)";
    if (!kSanitizedBuild && !what.abortOnError)
        GTEST_SKIP() << "abort_on_error matters only to the sanitizer build (./test.sh --sanitize)";

    const Died died = runWithFaultyDriver(what);
    const std::string err = died.err.toStdString();
    // abort() and signals end in a crash; a sanitizer told not to abort ends with its exit code instead.
    const bool endsBySignal = what.abortOnError || std::string(what.fault.name) == "abort";
    EXPECT_EQ(died.status, endsBySignal ? QProcess::CrashExit : QProcess::NormalExit) << err;
    if (died.status == QProcess::NormalExit) {
        EXPECT_NE(died.exitCode, 0) << err;
    }
    // The driver's chatter, captured while the CLI ran, is replayed as the process dies.
    EXPECT_NE(err.find(std::string("fatal-test-driver: internal error (") + what.fault.name + ")"),
              std::string::npos)
        << "stderr: '" << err << "'";
    if (kSanitizedBuild && *what.fault.sanitizedReport != '\0') {
        EXPECT_NE(err.find(what.fault.sanitizedReport), std::string::npos) << "stderr: '" << err << "'";
        // The report's stack reaches into the driver: the sanitizer's own report, not just its first line.
        EXPECT_NE(err.find("fatal_test_icd.cpp:"), std::string::npos) << "stderr: '" << err << "'";
    }
}

INSTANTIATE_TEST_SUITE_P(DriverFaults, FatalMessages, ::testing::ValuesIn(cases()), caseName);

}  // namespace
}  // namespace hs
