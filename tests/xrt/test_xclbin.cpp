// The xclbin writer (host/xclbin): what it writes is what XRT's own parser
// (xrt::xclbin, no card needed) reads back — kernel, arguments with their
// offsets, the compute unit, the memories and the connectivity — and the
// xrt backend's check refuses truncated, foreign and mismatched xclbins.
#include <gtest/gtest.h>

#include <experimental/xrt_xclbin.h>
#include <xclbin.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "backends/xrt_backend.h"
#include "xclbin/emulation_xclbin.h"
#include "xclbin/kernel_xml.h"
#include "xclbin/xclbin_writer.h"

namespace nnfab::xclbin {
namespace {

namespace fs = std::filesystem;

// Test data: a two-port kernel in package_xo's kernel.xml form (not the
// project's: that one is generated from isa/isa.json and used below).
const char* kSmallKernelXml = R"(<?xml version="1.0" encoding="UTF-8"?>
<root versionMajor="1" versionMinor="6">
  <kernel name="toy" language="ip_c" vlnv="x:y:toy:1.0" interrupt="false" hwControlProtocol="user_managed">
    <ports>
      <port name="s_axi_control" mode="slave" range="0x1000" dataWidth="32" portType="addressable" base="0x0"/>
      <port name="m_axi_a" mode="master" range="0xFFFFFFFFFFFFFFFF" dataWidth="512" portType="addressable" base="0x0"/>
      <port name="m_axi_b" mode="master" range="0xFFFFFFFFFFFFFFFF" dataWidth="64" portType="addressable" base="0x0"/>
    </ports>
    <args>
      <arg name="a" addressQualifier="1" id="0" port="m_axi_a" size="0x8" offset="0x10" type="int*" hostOffset="0x0" hostSize="0x8"/>
      <arg name="b" addressQualifier="1" id="1" port="m_axi_b" size="0x8" offset="0x1C" type="int*" hostOffset="0x0" hostSize="0x8"/>
      <arg name="n" addressQualifier="0" id="2" port="s_axi_control" size="0x4" offset="0x28" type="uint" hostOffset="0x0" hostSize="0x4"/>
    </args>
  </kernel>
</root>
)";

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("nnfab_xclbin_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  }
  fs::path dir_;
};

using XclbinWriter = TempDir;
using XclbinCheck = TempDir;

std::string emulationXclbin(const std::string& kernelXmlPath = "") {
  EmulationXclbinOptions o;
  o.kernelXmlPath = kernelXmlPath;
  o.deviceProgram = "/bin/true";
  auto bytes = buildEmulationXclbin(o);
  EXPECT_TRUE(bytes.isOk()) << bytes.status().message();
  return bytes.isOk() ? *bytes : std::string();
}

TEST_F(XclbinWriter, XrtReadsBackKernelArgumentsComputeUnitAndMemories) {
  auto kernel = parseKernelXml(kSmallKernelXml);
  ASSERT_TRUE(kernel.isOk()) << kernel.status().message();
  XclbinSpec spec;
  spec.kernel = *kernel;
  spec.cuName = "toy_1";
  spec.cuBase = 0x1800000;
  spec.banks = {MemoryBank{"DDR[0]", 0x4000000000, uint64_t{16} << 30}, MemoryBank{"HBM[3]", 0x10C0000000, uint64_t{256} << 20}};
  spec.portBanks = {{"m_axi_b", {1}}};
  spec.mode = XclbinMode::HW;
  spec.bitstream = "not a real bitstream";
  auto bytes = buildXclbin(spec);
  ASSERT_TRUE(bytes.isOk()) << bytes.status().message();

  const xrt::xclbin x(std::vector<char>(bytes->begin(), bytes->end()));
  EXPECT_EQ(x.get_xsa_name(), spec.platformVbnv);
  const auto kernels = x.get_kernels();
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].get_name(), "toy");
  const auto args = kernels[0].get_args();
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].get_name(), "a");
  EXPECT_EQ(args[0].get_offset(), 0x10u);
  EXPECT_EQ(args[0].get_size(), 8u);
  EXPECT_EQ(args[1].get_name(), "b");
  EXPECT_EQ(args[1].get_offset(), 0x1Cu);
  EXPECT_EQ(args[2].get_name(), "n");
  EXPECT_EQ(args[2].get_offset(), 0x28u);
  EXPECT_EQ(args[2].get_size(), 4u);
  ASSERT_EQ(args[0].get_mems().size(), 1u);
  EXPECT_EQ(args[0].get_mems()[0].get_tag(), "DDR[0]");
  ASSERT_EQ(args[1].get_mems().size(), 1u);
  EXPECT_EQ(args[1].get_mems()[0].get_tag(), "HBM[3]");
  EXPECT_TRUE(args[2].get_mems().empty());  // a scalar has no memory

  const auto cus = kernels[0].get_cus();
  ASSERT_EQ(cus.size(), 1u);
  EXPECT_EQ(cus[0].get_name(), "toy:toy_1");
  EXPECT_EQ(cus[0].get_base_address(), 0x1800000u);

  const auto mems = x.get_mems();
  ASSERT_EQ(mems.size(), 2u);
  EXPECT_EQ(mems[0].get_base_address(), 0x4000000000u);
  EXPECT_EQ(mems[0].get_size_kb(), uint64_t{16} << 20);
  EXPECT_EQ(mems[1].get_tag(), "HBM[3]");
  EXPECT_EQ(mems[1].get_size_kb(), uint64_t{256} << 10);
}

TEST_F(XclbinWriter, TheEmulationBitstreamIsAZipWithTheLaunchScript) {
  auto zip = emulationBitstream("/opt/some dir/nnfab-hwemu-device", "--bank 0x4000000000:0x40000000");
  ASSERT_TRUE(zip.isOk()) << zip.status().message();
  const fs::path file = write("b.zip", *zip);
  const std::string listing = "unzip -Z1 '" + file.string() + "'";
  std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(listing.c_str(), "r"), &pclose);
  ASSERT_TRUE(pipe);
  std::string names;
  char buf[256];
  while (fgets(buf, sizeof buf, pipe.get())) names += buf;
  EXPECT_NE(names.find("behav_waveform/xsim/simulate.sh"), std::string::npos) << names;
  const std::string show = "unzip -p '" + file.string() + "' behav_waveform/xsim/simulate.sh";
  std::unique_ptr<FILE, decltype(&pclose)> script(popen(show.c_str(), "r"), &pclose);
  std::string text;
  while (fgets(buf, sizeof buf, script.get())) text += buf;
  EXPECT_NE(text.find("exec '/opt/some dir/nnfab-hwemu-device' --bank 0x4000000000:0x40000000"), std::string::npos) << text;
}

TEST_F(XclbinWriter, SpecsXrtCouldNotLoadAreRefused) {
  XclbinSpec spec;
  EXPECT_EQ(buildXclbin(spec).status().code(), ErrorStatus::INVALID_ARGUMENT);  // no kernel
  spec.kernel = parseKernelXml(kSmallKernelXml).value();
  spec.cuName = std::string(70, 'x');
  EXPECT_EQ(buildXclbin(spec).status().code(), ErrorStatus::INVALID_ARGUMENT);
  spec.cuName = "toy_1";
  spec.portBanks = {{"m_axi_b", {0, 5}}};
  EXPECT_NE(buildXclbin(spec).status().message().find("bank 5"), std::string::npos);
  spec.portBanks = {{"m_axi_b", {}}};
  EXPECT_NE(buildXclbin(spec).status().message().find("m_axi_b is connected to no bank"), std::string::npos);
}

TEST(KernelXml, ReadsThisBuildsKernelDescription) {
  auto k = parseKernelXml(builtKernelXml());
  ASSERT_TRUE(k.isOk()) << k.status().message();
  EXPECT_EQ(k->hwControlProtocol, "user_managed");
  ASSERT_NE(k->port("s_axi_control"), nullptr);
  EXPECT_EQ(k->port("s_axi_control")->mode, "slave");
  EXPECT_FALSE(k->args.empty());
}

TEST(KernelXml, TheEmbeddedMetadataEscapesWhatItCopies) {
  std::string xml = kSmallKernelXml;
  xml.replace(xml.find("type=\"uint\""), 11, "type=\"vec&lt;int&gt;\"");
  auto k = parseKernelXml(xml);
  ASSERT_TRUE(k.isOk()) << k.status().message();
  EXPECT_EQ(k->arg("n")->type, "vec<int>");
  const std::string meta = embeddedMetadata(*k, "toy_1", 0x1800000, "p");
  EXPECT_NE(meta.find("type=\"vec&lt;int&gt;\""), std::string::npos);
  EXPECT_NE(meta.find("<addrRemap base=\"0x1800000\""), std::string::npos);
}

TEST(KernelXml, MalformedDescriptionsAreRefusedWithTheReason) {
  auto message = [](const std::string& xml) { return parseKernelXml(xml).status().message(); };
  EXPECT_NE(message("<root><kernel").find("not XML"), std::string::npos);
  EXPECT_NE(message("<root/>").find("one <kernel>"), std::string::npos);
  std::string noOffset = kSmallKernelXml;
  noOffset.replace(noOffset.find(" offset=\"0x28\""), 14, "");
  EXPECT_NE(message(noOffset).find("<arg> without offset"), std::string::npos);
  std::string badNumber = kSmallKernelXml;
  badNumber.replace(badNumber.find("0x28"), 4, "0xZZ");
  EXPECT_NE(message(badNumber).find("is not a number"), std::string::npos);
  std::string badPort = kSmallKernelXml;
  badPort.replace(badPort.find("port=\"m_axi_b\""), 14, "port=\"m_axi_q\"");
  EXPECT_NE(message(badPort).find("m_axi_q"), std::string::npos);
}

TEST_F(XclbinCheck, AcceptsTheEmulationXclbinOfThisBuildWithAWindowPerBank) {
  const fs::path file = write("emu.xclbin", emulationXclbin());
  auto check = backends::checkXclbin(file.string());
  ASSERT_TRUE(check.isOk()) << check.status().message();
  EXPECT_EQ(check->kernelName, "nnfab_core");
  EXPECT_EQ(check->cuName, "nnfab_core:{nnfab_core_1}");
  ASSERT_EQ(check->memories.size(), 3u);
  EXPECT_EQ(check->windows.common, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(check->windows.a, 0);
  EXPECT_EQ(check->windows.b, 1);
  EXPECT_EQ(check->windows.d, 2);
  EXPECT_EQ(check->bytesOf(check->windows.a), uint64_t{1} << 30);
  EXPECT_EQ(check->memory(2)->tag, "HBM[2]");
}

// The emulation xclbin as XRT reads it: three HBM banks at distinct
// addresses, every data port connected to all three, the program port to
// the first; the device process is told the same banks.
TEST_F(XclbinWriter, TheEmulationXclbinHasThreeBanksEveryDataPortReaches) {
  const std::string bytes = emulationXclbin();
  const xrt::xclbin x(std::vector<char>(bytes.begin(), bytes.end()));
  const auto mems = x.get_mems();
  ASSERT_EQ(mems.size(), 3u);
  EmulationXclbinOptions o;
  for (size_t i = 0; i < mems.size(); ++i) {
    EXPECT_EQ(mems[i].get_tag(), "HBM[" + std::to_string(i) + "]");
    EXPECT_EQ(mems[i].get_type(), xrt::xclbin::mem::memory_type::hbm);
    EXPECT_EQ(mems[i].get_base_address(), o.bank.base + i * o.bankStride());
    EXPECT_EQ(mems[i].get_size_kb() * 1024, o.bank.bytes);
  }
  EXPECT_GE(o.bankStride(), o.bank.bytes);  // no two banks overlap
  for (const auto& arg : x.get_kernels().at(0).get_args()) {
    if (arg.get_port().rfind("m_axi_", 0) != 0) continue;
    EXPECT_EQ(arg.get_mems().size(), arg.get_port() == "m_axi_prog" ? 1u : 3u) << arg.get_port();
  }
}

// An xclbin of this build's kernel with the given connectivity (port ->
// banks among HBM[0..3]).
std::string connectedXclbin(const std::map<std::string, std::vector<size_t>>& portBanks) {
  XclbinSpec spec;
  spec.kernel = parseKernelXml(builtKernelXml()).value();
  spec.cuName = "nnfab_core_1";
  spec.banks.clear();
  for (uint64_t i = 0; i < 4; ++i) {
    spec.banks.push_back(MemoryBank{"HBM[" + std::to_string(i) + "]", i << 28, uint64_t{256} << 20});
  }
  spec.portBanks = portBanks;
  return buildXclbin(spec).value();
}

TEST_F(XclbinCheck, TwoCommonBanksAreAcceptedWithBAndDSharingOne) {
  auto check = backends::checkXclbin(
      write("two.xclbin", connectedXclbin({{"m_axi_prog", {0}}, {"m_axi_data", {0, 1}}, {"m_axi_srcb", {0, 1, 3}},
                                           {"m_axi_dst", {1, 0}}}))
          .string());
  ASSERT_TRUE(check.isOk()) << check.status().message();
  EXPECT_EQ(check->windows.a, 0);
  EXPECT_EQ(check->windows.b, 1);
  EXPECT_EQ(check->windows.d, 1);
}

TEST_F(XclbinCheck, RefusesDataPortsWithoutACommonBank) {
  const Status s = backends::checkXclbin(
                       write("apart.xclbin", connectedXclbin({{"m_axi_prog", {0}}, {"m_axi_data", {0, 1, 2}},
                                                              {"m_axi_srcb", {3}}, {"m_axi_dst", {0, 1, 2}}}))
                           .string())
                       .status();
  EXPECT_EQ(s.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("the data ports reach no memory bank in common"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("m_axi_srcb: HBM[3]"), std::string::npos) << s.message();
}

TEST_F(XclbinCheck, RefusesAProgramPortOutsideTheDataPortsBanks) {
  const Status s = backends::checkXclbin(
                       write("prog.xclbin", connectedXclbin({{"m_axi_prog", {3}}, {"m_axi_data", {0, 1, 2}},
                                                             {"m_axi_srcb", {0, 1, 2}}, {"m_axi_dst", {0, 1, 2}}}))
                           .string())
                       .status();
  EXPECT_EQ(s.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("m_axi_prog (HBM[3]) reaches none of the banks"), std::string::npos) << s.message();
}

TEST_F(XclbinCheck, RefusesMissingTruncatedAndForeignFiles) {
  auto code = [](const fs::path& p) { return backends::checkXclbin(p.string()).status(); };
  EXPECT_NE(code(dir_ / "missing.xclbin").message().find("cannot be read"), std::string::npos);
  EXPECT_NE(code(write("text.xclbin", "hello, not an xclbin")).message().find("not an xclbin"), std::string::npos);
  const std::string good = emulationXclbin();
  const Status truncated = code(write("cut.xclbin", good.substr(0, good.size() / 3)));
  EXPECT_EQ(truncated.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(truncated.message().find("truncated or damaged: its header says"), std::string::npos)
      << truncated.message();
  const Status header = code(write("header.xclbin", good.substr(0, 100)));
  EXPECT_NE(header.message().find("truncated: 100 bytes"), std::string::npos) << header.message();
  // Another kernel (XRT's own parser reads it fine; it is just not ours).
  auto toy = parseKernelXml(kSmallKernelXml).value();
  XclbinSpec spec;
  spec.kernel = toy;
  spec.cuName = "toy_1";
  const Status foreign = code(write("toy.xclbin", buildXclbin(spec).value()));
  EXPECT_EQ(foreign.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(foreign.message().find("has no kernel nnfab_core (it has: toy)"), std::string::npos) << foreign.message();
}

// XRT's parser trusts the container's sizes and copies past its buffer when
// they lie (AddressSanitizer: a heap overflow in xrt::xclbin_full::init_axlf),
// so the check refuses such a file before XRT sees it: a section that runs
// past the end, more sections than the file holds, and anything but a
// regular file.
TEST_F(XclbinCheck, RefusesSectionsPastTheEndAndSpecialFilesBeforeXrtReadsThem) {
  auto code = [](const fs::path& p) { return backends::checkXclbin(p.string()).status(); };
  const std::string good = emulationXclbin();
  ASSERT_TRUE(code(write("good.xclbin", good)).isOk()) << code(dir_ / "good.xclbin").message();

  std::string longSection = good;
  const uint64_t huge = good.size();
  std::memcpy(longSection.data() + offsetof(axlf, m_sections) + offsetof(axlf_section_header, m_sectionSize), &huge,
              sizeof huge);
  const Status past = code(write("past.xclbin", longSection));
  EXPECT_EQ(past.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(past.message().find("section 0"), std::string::npos) << past.message();
  EXPECT_NE(past.message().find("runs past the end"), std::string::npos) << past.message();

  std::string manySections = good;
  const uint32_t many = 1u << 30;
  std::memcpy(manySections.data() + offsetof(axlf, m_header) + offsetof(axlf_header, m_numSections), &many,
              sizeof many);
  const Status table = code(write("many.xclbin", manySections));
  EXPECT_EQ(table.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(table.message().find("sections do not fit"), std::string::npos) << table.message();

  const Status directory = code(dir_);
  EXPECT_EQ(directory.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(directory.message().find("not a regular file"), std::string::npos) << directory.message();
  const Status null = code("/dev/null");
  EXPECT_NE(null.message().find("not a regular file"), std::string::npos) << null.message();
}

TEST_F(XclbinCheck, RefusesAnArgumentAtAnotherOffset) {
  std::string xml = builtKernelXml();
  const auto at = xml.find("offset=\"0x2C\"");
  ASSERT_NE(at, std::string::npos);
  xml.replace(at, 13, "offset=\"0x30\"");
  const fs::path kernelXml = write("kernel.xml", xml);
  const Status s = backends::checkXclbin(write("old.xclbin", emulationXclbin(kernelXml.string())).string()).status();
  EXPECT_EQ(s.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("offset 0x30"), std::string::npos) << s.message();
}

TEST_F(XclbinCheck, RefusesAKernelXrtWouldDriveItself) {
  std::string xml = builtKernelXml();
  const std::string managed = "hwControlProtocol=\"user_managed\"";
  const auto at = xml.find(managed);
  ASSERT_NE(at, std::string::npos);
  xml.replace(at, managed.size(), "hwControlProtocol=\"ap_ctrl_hs\"");
  const fs::path kernelXml = write("kernel.xml", xml);
  const Status s = backends::checkXclbin(write("hs.xclbin", emulationXclbin(kernelXml.string())).string()).status();
  EXPECT_EQ(s.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(s.message().find("not user_managed"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace nnfab::xclbin
