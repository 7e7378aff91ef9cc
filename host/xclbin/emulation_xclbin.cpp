#include "xclbin/emulation_xclbin.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace nnfab::xclbin {
namespace {

namespace fs = std::filesystem;

Result<std::string> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument(fmt::format("cannot read {}", path.string()));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Single-quoted for sh.
std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `zip -q -r -X archive.zip behav_waveform` in `dir`; the exit status.
int runZip(const fs::path& dir) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    execlp("zip", "zip", "-q", "-r", "-X", "archive.zip", "behav_waveform", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

Result<std::string> emulationBitstream(const std::string& deviceProgram, const std::string& arguments) {
  std::string pattern = (fs::temp_directory_path() / "nnfab-xclbin-XXXXXX").string();
  if (!mkdtemp(pattern.data())) return generalFailure("cannot create a temporary folder for the emulation zip");
  const fs::path dir = pattern;
  const fs::path script = dir / "behav_waveform" / "xsim" / "simulate.sh";
  std::error_code ec;
  fs::create_directories(script.parent_path(), ec);
  {
    std::ofstream out(script);
    out << "#!/bin/sh\n"
        << "# XRT's hw_emu shim runs this in place of an XSim simulation: nnfab's\n"
        << "# device process serves the shim's socket with the Verilated core.\n"
        << "exec " << shellQuote(deviceProgram) << " " << arguments << "\n";
    out.close();
    if (!out) {
      fs::remove_all(dir, ec);
      return generalFailure(fmt::format("cannot write {}", script.string()));
    }
  }
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec, ec);
  const int rc = runZip(dir);
  Result<std::string> zip = rc == 0 ? readFile(dir / "archive.zip")
                                    : Result<std::string>(generalFailure(
                                          rc == 127 ? "the emulation xclbin needs `zip` (Debian package zip)"
                                                    : fmt::format("zip failed with status {}", rc)));
  fs::remove_all(dir, ec);
  return zip;
}

std::vector<MemoryBank> EmulationXclbinOptions::banks() const {
  std::vector<MemoryBank> out;
  for (unsigned i = 0; i < bankCount; ++i) {
    out.push_back(MemoryBank{fmt::format("HBM[{}]", i), bank.base + i * bankStride(), bank.bytes});
  }
  return out;
}

Result<std::string> buildEmulationXclbin(const EmulationXclbinOptions& options) {
  if (options.bankCount == 0 || options.bankCount > 32) {
    return invalidArgument(fmt::format("the emulation xclbin takes 1 to 32 banks, not {}", options.bankCount));
  }
  auto xml = options.kernelXmlPath.empty() ? Result<std::string>(builtKernelXml()) : readFile(options.kernelXmlPath);
  if (!xml) return xml.status();
  auto kernel = parseKernelXml(*xml);
  if (!kernel) return kernel.status();
  if (!fs::exists(options.deviceProgram)) {
    return invalidArgument(fmt::format("device program {} does not exist", options.deviceProgram));
  }
  const std::vector<MemoryBank> banks = options.banks();
  std::string arguments;
  for (const MemoryBank& b : banks) arguments += fmt::format("--bank 0x{:x}:0x{:x} ", b.base, b.bytes);
  arguments += fmt::format("--cu-base 0x{:x}", options.cuBase);
  auto zip = emulationBitstream(options.deviceProgram, arguments);
  if (!zip) return zip.status();
  XclbinSpec spec;
  spec.kernel = std::move(*kernel);
  spec.cuName = spec.kernel.name + "_1";
  spec.cuBase = options.cuBase;
  spec.banks = banks;
  // Every data port reaches every bank (each reaches every window); the
  // program port the first, where the program lives.
  std::vector<size_t> all;
  for (size_t i = 0; i < banks.size(); ++i) all.push_back(i);
  for (const KernelArg& a : spec.kernel.args) {
    if (a.addressQualifier == 1) spec.portBanks[a.port] = a.port == "m_axi_prog" ? std::vector<size_t>{0} : all;
  }
  spec.mode = XclbinMode::HW_EMU;
  spec.bitstream = std::move(*zip);
  return buildXclbin(spec);
}

}  // namespace nnfab::xclbin
