// The deploy consistency check (deploy_consistency.h) on the real sources, and
// on copies with one deliberate mismatch each: every mismatch must be found.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "deploy/deploy_consistency.h"

namespace {

namespace fs = std::filesystem;
using nnfab::deploy::checkDeployConsistency;
using nnfab::deploy::DeploySources;

fs::path sourceDir() {
  const char* dir = std::getenv("NNFAB_SOURCE_DIR");
  return dir ? fs::path(dir) : fs::path(NNFAB_TEST_SOURCE_DIR);
}

DeploySources realSources() {
  DeploySources s;
  s.isaJson = sourceDir() / "isa/isa.json";
  s.isaHeader = fs::path(NNFAB_TEST_GENERATED_DIR) / "nnfab_isa.h";
  s.kernelXml = fs::path(NNFAB_TEST_GENERATED_DIR) / "kernel.xml";
  s.rtlXml = fs::path(NNFAB_TEST_RTL_XML);
  s.hlsTop = sourceDir() / "hls/nnfab_core.cpp";
  s.bitstreamsDir = sourceDir() / "bitstreams";
  s.constraintsDir = sourceDir() / "constraints";
  return s;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A copy of every source in a temporary folder, laid out as in the
// repository (bitstreams/ and constraints/ side by side, for the cfgs' hook
// paths), so one file can be broken without touching the real ones.
class Mismatch : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("nnfab_deploy_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    const DeploySources real = realSources();
    fs::create_directories(root_ / "bitstreams");
    fs::create_directories(root_ / "constraints");
    copies_.isaJson = copy(real.isaJson, root_ / "isa.json");
    copies_.isaHeader = copy(real.isaHeader, root_ / "nnfab_isa.h");
    copies_.kernelXml = copy(real.kernelXml, root_ / "kernel.xml");
    copies_.rtlXml = copy(real.rtlXml, root_ / "nnfab_core_rtl.xml");
    copies_.hlsTop = copy(real.hlsTop, root_ / "nnfab_core.cpp");
    for (const auto& e : fs::directory_iterator(real.bitstreamsDir))
      if (e.path().extension() == ".cfg") copy(e.path(), root_ / "bitstreams" / e.path().filename());
    for (const auto& e : fs::directory_iterator(real.constraintsDir))
      copy(e.path(), root_ / "constraints" / e.path().filename());
    copies_.bitstreamsDir = root_ / "bitstreams";
    copies_.constraintsDir = root_ / "constraints";
  }
  void TearDown() override { fs::remove_all(root_); }

  static fs::path copy(const fs::path& from, const fs::path& to) {
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    return to;
  }

  // Replaces the first `from` by `to` in a copied file; fails if absent so a
  // changed source cannot turn a mismatch test into a no-op.
  void edit(const fs::path& file, const std::string& from, const std::string& to) {
    std::string text = readText(file);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in " << file;
    text.replace(at, from.size(), to);
    std::ofstream(file, std::ios::binary) << text;
  }

  // The check must report a line containing `expected`.
  void expectProblem(const std::string& expected) {
    const auto problems = checkDeployConsistency(copies_);
    bool found = false;
    for (const auto& p : problems) found = found || p.find(expected) != std::string::npos;
    EXPECT_TRUE(found) << "expected a problem containing '" << expected << "', got:\n" << join(problems);
  }

  fs::path root_;
  DeploySources copies_;
};

TEST(DeployConsistency, RealSourcesAgree) {
  const auto problems = checkDeployConsistency(realSources());
  EXPECT_TRUE(problems.empty()) << join(problems);
}

TEST_F(Mismatch, UntouchedCopyAgrees) {
  const auto problems = checkDeployConsistency(copies_);
  EXPECT_TRUE(problems.empty()) << join(problems);
}

TEST_F(Mismatch, KernelXmlArgOffset) {
  edit(copies_.kernelXml, "offset=\"0x18\"", "offset=\"0x1C\"");
  expectProblem("arg data: offset 0x1C, register DATA_ADDR is at 0x18");
}

TEST_F(Mismatch, KernelXmlControlProtocol) {
  edit(copies_.kernelXml, "hwControlProtocol=\"user_managed\"", "hwControlProtocol=\"ap_ctrl_hs\"");
  expectProblem("hwControlProtocol 'ap_ctrl_hs'");
}

TEST_F(Mismatch, KernelXmlPortWidth) {
  edit(copies_.kernelXml, "name=\"m_axi_data\" mode=\"master\" range=\"0xFFFFFFFFFFFFFFFF\" dataWidth=\"512\"",
       "name=\"m_axi_data\" mode=\"master\" range=\"0xFFFFFFFFFFFFFFFF\" dataWidth=\"256\"");
  expectProblem("port m_axi_data dataWidth 256");
}

TEST_F(Mismatch, RegisterMovedInIsaJsonOnly) {
  // isa.json moves a register; the generated files still have the old place.
  edit(copies_.isaJson, "\"name\": \"PROG_SIZE\",\n   \"offset\": 40,", "\"name\": \"PROG_SIZE\",\n   \"offset\": 36,");
  expectProblem("nnfab_isa.h: register PROG_SIZE at 0x28, isa.json says 0x24");
  expectProblem("arg prog_size: offset 0x28, register PROG_SIZE is at 0x24");
}

TEST_F(Mismatch, StaleHeader) {
  edit(copies_.isaHeader, "kRegPREEMPT = 0x48u", "kRegPREEMPT = 0x4Cu");
  expectProblem("register PREEMPT at 0x4C");
}

TEST_F(Mismatch, RtlPortWidth) {
  // Point m_axi_data_rdata at the 1-bit type of ap_clk.
  const std::string text = readText(copies_.rtlXml);
  const auto at = text.find("name=\"m_axi_data_rdata\" dtype_id=\"");
  ASSERT_NE(at, std::string::npos);
  const auto idStart = text.find('"', at + 24) + 1;
  const auto idEnd = text.find('"', idStart);
  edit(copies_.rtlXml, "name=\"m_axi_data_rdata\" dtype_id=\"" + text.substr(idStart, idEnd - idStart) + "\"",
       "name=\"m_axi_data_rdata\" dtype_id=\"1\"");
  expectProblem("port m_axi_data_rdata is 1 bits, expected 512");
}

// m_axi_dst is write-only in the RTL: isa.json calling it read-only is
// caught on both sides (its read channels missing, its write ones present).
TEST_F(Mismatch, WriteOnlyMasterDeclaredReadOnly) {
  edit(copies_.isaJson, "\"access\": \"write-only\"", "\"access\": \"read-only\"");
  expectProblem("port m_axi_dst_arvalid missing");
  expectProblem("port m_axi_dst_awvalid present but isa.json declares m_axi_dst read-only");
}

TEST_F(Mismatch, RtlPortRenamed) {
  edit(copies_.rtlXml, "name=\"interrupt\"", "name=\"irq\"");
  expectProblem("port interrupt missing");
  expectProblem("port irq belongs to no interface");
}

TEST_F(Mismatch, HlsPragmaOffset) {
  edit(copies_.hlsTop, "port=data_size offset=0x2C", "port=data_size offset=0x30");
  expectProblem("nnfab_core.cpp: data_size at 0x30, register DATA_SIZE is at 0x2C");
}

TEST_F(Mismatch, HlsBundle) {
  edit(copies_.hlsTop, "port=data bundle=data", "port=data bundle=gmem");
  expectProblem("nnfab_core.cpp: data on bundle gmem (port m_axi_gmem), isa.json says m_axi_data");
}

TEST_F(Mismatch, CfgPortName) {
  // The connectivity line, not the commented alternative above it.
  edit(copies_.bitstreamsDir / "u250.cfg", "\nsp=nnfab_core_1.m_axi_data:", "\nsp=nnfab_core_1.m_axi_dat:");
  expectProblem("u250.cfg: sp for m_axi_dat, which is no AXI4 master");
  expectProblem("u250.cfg: nnfab_core_1.m_axi_data has no sp=");
}

TEST_F(Mismatch, CfgBankNotOnCard) {
  edit(copies_.bitstreamsDir / "u250.cfg", "m_axi_data:DDR[0]", "m_axi_data:HBM[0]");
  expectProblem("u250.cfg: sp to HBM[0], not a memory of this card");
}

TEST_F(Mismatch, CfgKernelFrequency) {
  edit(copies_.bitstreamsDir / "u55c.cfg", "kernel_frequency=0:300", "kernel_frequency=0:250");
  expectProblem("u55c.cfg: kernel_frequency=0:250");
}

TEST_F(Mismatch, CfgSlrOutOfRange) {
  edit(copies_.bitstreamsDir / "u50.cfg", "slr=nnfab_core_1:SLR0", "slr=nnfab_core_1:SLR2");
  expectProblem("u50.cfg: nnfab_core_1 placed in SLR2");
}

TEST_F(Mismatch, CfgKernelName) {
  edit(copies_.bitstreamsDir / "u280.cfg", "nk=nnfab_core:1:", "nk=nnfab:1:");
  expectProblem("u280.cfg: nk names kernel nnfab");
}

TEST_F(Mismatch, CfgMissingCard) {
  fs::remove(copies_.bitstreamsDir / "u280.cfg");
  expectProblem("bitstreams/u280.cfg missing");
}

TEST_F(Mismatch, OocClockPeriod) {
  edit(copies_.constraintsDir / "nnfab_core_ooc.xdc", "-period 3.333", "-period 4.000");
  expectProblem("period 4.000 ns");
}

}  // namespace
