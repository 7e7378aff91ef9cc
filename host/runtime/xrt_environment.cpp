#include "runtime/xrt_environment.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

#include <fmt/format.h>

namespace nnfab::runtime {
namespace {

namespace fs = std::filesystem;

struct Session {
  std::mutex mutex;
  std::string folder;
  ~Session() {
    std::error_code ec;
    if (!folder.empty()) fs::remove_all(folder, ec);
  }
};

Session& session() {
  static Session s;
  return s;
}

// XRT 2.13's hw_emu shim serializes every call into one buffer it grows
// with realloc, then writes through the stale pointer when a call is larger
// than any before (heap corruption on the first sync of a buffer bigger than
// the first call). The first call it sends is xclSetEnvironment with the
// [Emulation] keys of xrt.ini: one long (unknown, hence ignored) key makes
// that buffer large enough for every later call (the shim sends at most
// 8 MiB per call). docs/xrt-emu.md, "Traps".
constexpr size_t kShimBufferReserve = size_t{9} << 20;

Status setEnv(const char* name, const std::string& value) {
  if (::setenv(name, value.c_str(), 1) != 0) return generalFailure(fmt::format("cannot set {}", name));
  return Status::ok();
}

Status fakeRoot(const std::string& folder) {
  const fs::path root = fs::path(folder) / "xrt_root";
  std::error_code ec;
  fs::create_directories(root, ec);
  if (!fs::exists(root / "lib")) fs::create_directory_symlink(NNFAB_XRT_LIB_DIR, root / "lib", ec);
  if (ec) return generalFailure(fmt::format("cannot link {} to XRT's libraries: {}", (root / "lib").string(), ec.message()));
  return setEnv("XILINX_XRT", root.string());
}

}  // namespace

std::string xrtSessionFolder(std::string* error) {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.folder.empty()) {
    std::string pattern = (fs::temp_directory_path() / "nnfab-xrt-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      *error = "cannot create a temporary folder for XRT";
      return {};
    }
    s.folder = pattern;
  }
  return s.folder;
}

Status prepareXrtCardEnvironment() {
  if (const char* root = std::getenv("XILINX_XRT"); root && *root) return Status::ok();
  std::string error;
  const std::string folder = xrtSessionFolder(&error);
  if (folder.empty()) return generalFailure(error);
  return fakeRoot(folder);
}

Status prepareXrtEmuEnvironment() {
  std::string error;
  const std::string folder = xrtSessionFolder(&error);
  if (folder.empty()) return generalFailure(error);
  if (Status s = fakeRoot(folder); !s) return s;
  if (Status s = setEnv("XCL_EMULATION_MODE", "hw_emu"); !s) return s;
  if (const char* user = std::getenv("USER"); !user || !*user) {
    if (Status s = setEnv("USER", fmt::format("nnfab{}", ::getuid())); !s) return s;
  }
  const fs::path ini = fs::path(folder) / "xrt.ini";
  {
    std::ofstream out(ini);
    // aie_sim_options is a key the hw_emu shim accepts and ignores; the
    // INFO lines would mix with the result JSON on stdout.
    out << "[Emulation]\nkeep_run_dir=false\nprint_infos_in_console=false\naie_sim_options="
        << std::string(kShimBufferReserve, 'x') << "\n";
    if (!out) return generalFailure("cannot write " + ini.string());
  }
  if (Status s = setEnv("XRT_INI_PATH", ini.string()); !s) return s;
  // Without emconfig.json the shim warns and invents a device; this names a U250.
  {
    std::ofstream out(fs::path(folder) / "emconfig.json");
    out << R"({"Version":{"Major":1,"Minor":0},"Platform":{"Boards":[{"Name":"xilinx.com:au250:1.3",)"
        << R"("Devices":[{"Name":"xilinx_u250_gen3x16_xdma_4_1_202210_1","Count":1}]}]}})" << "\n";
    if (!out) return generalFailure("cannot write emconfig.json");
  }
  if (Status s = setEnv("EMCONFIG_PATH", folder); !s) return s;
  // The shim's .run/<pid>/ folders (the unpacked BITSTREAM zip) go beside
  // the executable unless this names another place: keep them in ours.
  return setEnv("SDACCEL_EM_RUN_DIR", folder);
}

}  // namespace nnfab::runtime
