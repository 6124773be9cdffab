// Device selectors a user can type that name no device: each is an OpenClError naming the selector, never a
// crash (indices too large for an int once escaped as std::out_of_range and aborted every program).
#include <gtest/gtest.h>

#include <string>

#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"

namespace hs {
namespace {

std::string selectionFailure(const std::vector<DeviceInfo>& devices, const std::string& selector) {
    try {
        selectDevice(devices, selector);
    } catch (const OpenClError& error) {
        return error.what();
    }
    ADD_FAILURE() << "'" << selector << "' selected a device";
    return {};
}

TEST(DeviceSelector, IndicesBeyondIntNameNoDevice) {
    const auto devices = enumerateDevices();
    ASSERT_GE(devices.size(), 1u);
    for (const std::string selector :
         {"0:99999999999999999999", "2147483648:0", "0:2147483648", "99999999999999999999999999:0"}) {
        SCOPED_TRACE(selector);
        EXPECT_NE(selectionFailure(devices, selector).find(selector), std::string::npos);
    }
    // The largest int is still an index, and leading zeros still read as the number.
    EXPECT_NE(selectionFailure(devices, "2147483647:0").find("2147483647:0"), std::string::npos);
    EXPECT_EQ(&selectDevice(devices, "000:0000"), &devices[0]);
}

TEST(DeviceSelector, EnvironmentIndicesBeyondIntNameNoDevice) {
    const auto devices = enumerateDevices();
    ASSERT_GE(devices.size(), 1u);
    ASSERT_EQ(setenv("HISTOSCOPE_DEVICE", "2147483648:0", 1), 0);
    const std::string failure = selectionFailure(devices, "");
    unsetenv("HISTOSCOPE_DEVICE");
    EXPECT_NE(failure.find("2147483648:0"), std::string::npos) << failure;
}

}  // namespace
}  // namespace hs
