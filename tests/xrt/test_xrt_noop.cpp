// XRT's native API on nnfab's xclbin without a card: the noop shim
// (XCL_EMULATION_MODE=noop) opens a device, loads the xclbin, opens the
// compute unit and moves buffers, with no computation. The xrt backend must
// refuse that "card": its core does not report nnfab's ID. Then the CLI's
// answers on a machine without cards. ctest runs every case in its own
// process (XRT picks its shim once per process).
#include <gtest/gtest.h>

#include <experimental/xrt_ip.h>
#include <experimental/xrt_xclbin.h>
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_kernel.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backends/xrt_backend.h"
#include "runtime/xrt_device.h"
#include "runtime/xrt_environment.h"
#include "support/cli_fixture.h"
#include "xclbin/emulation_xclbin.h"
#include "xclbin/kernel_xml.h"
#include "xclbin/xclbin_writer.h"

namespace nnfab {
namespace {

namespace fs = std::filesystem;

bool machineHasXrtCards() { return fs::exists("/sys/bus/pci/drivers/xocl") || fs::exists("/dev/xfpga"); }

class XrtNoop : public test::CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    ASSERT_EQ(::setenv("XCL_EMULATION_MODE", "noop", 1), 0);
    ASSERT_TRUE(runtime::prepareXrtCardEnvironment().isOk());
    xclbin::EmulationXclbinOptions o;
    o.deviceProgram = "/bin/true";
    auto bytes = xclbin::buildEmulationXclbin(o);
    ASSERT_TRUE(bytes.isOk()) << bytes.status().message();
    xclbin_ = (dir_ / "nnfab.xclbin").string();
    std::ofstream(xclbin_, std::ios::binary) << *bytes;
  }
  std::string xclbin_;
};

TEST_F(XrtNoop, XrtLoadsTheXclbinOpensTheComputeUnitAndMovesBuffers) {
  auto check = backends::checkXclbin(xclbin_);
  ASSERT_TRUE(check.isOk()) << check.status().message();
  xrt::device device(0);
  const xrt::uuid uuid = device.load_xclbin(xclbin_);
  EXPECT_EQ(uuid, xrt::xclbin(xclbin_).get_uuid());
  xrt::ip ip(device, uuid, check->cuName);
  // The noop shim has no register space: an access is refused (the
  // backend turns that into a clear error, below).
  EXPECT_ANY_THROW(ip.write_register(0x28, 64));
  xrt::bo bo(device, 4096, xrt::bo::flags::normal, static_cast<xrt::memory_group>(check->windows.a));
  std::vector<char> data(4096, 7);
  bo.write(data.data());
  bo.sync(XCL_BO_SYNC_BO_TO_DEVICE);
  bo.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
  // A user_managed kernel is not something xrt::kernel may start.
  EXPECT_ANY_THROW(xrt::kernel(device, uuid, "nnfab_core"));
}

TEST_F(XrtNoop, TheBackendRefusesACoreWhoseIdItCannotRead) {
  backends::XrtBackendOptions o;
  o.xclbinPath = xclbin_;
  auto backend = backends::XrtBackend::open(o);
  ASSERT_FALSE(backend.isOk());
  EXPECT_EQ(backend.status().code(), ErrorStatus::DEVICE_UNAVAILABLE);
  EXPECT_NE(backend.status().message().find("reading the core's ID"), std::string::npos)
      << backend.status().message();
}

TEST_F(XrtNoop, TheBackendNeedsAnXclbin) {
  auto backend = backends::XrtBackend::open({});
  EXPECT_EQ(backend.status().code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(backend.status().message().find("--xclbin"), std::string::npos);
}

using XrtCli = test::CliFixture;

TEST_F(XrtCli, WithoutCardsDevicesListsNoXrtCardAndSucceeds) {
  if (machineHasXrtCards()) GTEST_SKIP() << "this machine has an XRT card";
  EXPECT_TRUE(xrtCardRows().empty());
  const auto o = nnfab("devices");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out.find("xrt:"), std::string::npos) << o.out;
#ifdef NNFAB_HAS_XRT_EMU_DEVICE
  EXPECT_NE(o.out.find("xrt-emu"), std::string::npos) << o.out;
#endif
}

TEST_F(XrtCli, XrtWithoutAnXclbinIsAUsageError) {
  const auto o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device xrt");
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("needs an xclbin"), std::string::npos) << o.err;
}

TEST_F(XrtCli, AForeignFileAsXclbinIsAUsageError) {
  const auto o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device xrt:0 --xclbin README.md");
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_NE(o.err.find("is not an xclbin"), std::string::npos) << o.err;
}

// Issue 15: every data port must reach every window of the data region. An
// xclbin whose m_axi_srcb reaches none of the other data ports' banks is a
// usage error naming the ports' banks, before any card is opened.
TEST_F(XrtCli, AnXclbinWhoseDataPortsShareNoBankIsAUsageError) {
  xclbin::XclbinSpec spec;
  spec.kernel = xclbin::parseKernelXml(xclbin::builtKernelXml()).value();
  spec.cuName = "nnfab_core_1";
  spec.banks = {xclbin::MemoryBank{"HBM[0]", 0x0, uint64_t{256} << 20},
                xclbin::MemoryBank{"HBM[1]", uint64_t{256} << 20, uint64_t{256} << 20}};
  spec.portBanks = {{"m_axi_prog", {0}}, {"m_axi_data", {0}}, {"m_axi_srcb", {1}}, {"m_axi_dst", {0}}};
  const fs::path file = dir_ / "apart.xclbin";
  std::ofstream(file, std::ios::binary) << xclbin::buildXclbin(spec).value();
  const auto o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device xrt:0 --xclbin " +
                       file.string());
  EXPECT_EQ(o.exitCode, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("the data ports reach no memory bank in common (m_axi_data: HBM[0]; m_axi_srcb: HBM[1]; "
                       "m_axi_dst: HBM[0])"),
            std::string::npos)
      << o.err;
}

TEST_F(XrtCli, NoCardIsADeviceUnavailableResult) {
  if (machineHasXrtCards()) GTEST_SKIP() << "this machine has an XRT card";
  xclbin::EmulationXclbinOptions opt;
  opt.deviceProgram = "/bin/true";
  const fs::path file = dir_ / "nnfab.xclbin";
  std::ofstream(file, std::ios::binary) << xclbin::buildEmulationXclbin(opt).value();
  const auto o = nnfab("run examples/while_sum.json --inputs examples/while_sum.inputs.json --device xrt:3 --xclbin " +
                       file.string());
  EXPECT_EQ(o.exitCode, 1) << o.err;
  EXPECT_NE(o.out.find("\"status\": \"DEVICE_UNAVAILABLE\""), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("no card xrt:3"), std::string::npos) << o.out;
}

TEST(XrtDeviceName, ParsesXrtAndXrtN) {
  unsigned n = 99;
  EXPECT_TRUE(parseXrtDeviceName("xrt", &n));
  EXPECT_EQ(n, 0u);
  EXPECT_TRUE(parseXrtDeviceName("xrt:12", &n));
  EXPECT_EQ(n, 12u);
  EXPECT_FALSE(parseXrtDeviceName("xrt:", &n));
  EXPECT_FALSE(parseXrtDeviceName("xrt:1a", &n));
  EXPECT_FALSE(parseXrtDeviceName("xrt-emu", &n));
  EXPECT_FALSE(parseXrtDeviceName("xrtx", &n));
}

}  // namespace
}  // namespace nnfab
