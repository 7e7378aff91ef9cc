// nnfab-xclbin: writes the emulation xclbin the xrt-emu device uses (the
// device builds the same one for itself; this is for running XRT programs
// by hand against the emulation). docs/xrt-emu.md.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>

#include "xclbin/emulation_xclbin.h"

int main(int argc, char** argv) {
  CLI::App app{"Write nnfab's hw_emu xclbin (kernel.xml + the device process nnfab-hwemu-device)"};
  nnfab::xclbin::EmulationXclbinOptions options;
  std::string output;
  app.add_option("--kernel-xml", options.kernelXmlPath, "kernel.xml (default: the one this build generated from isa/isa.json)");
  app.add_option("--device-program", options.deviceProgram, "absolute path of nnfab-hwemu-device")->required();
  app.add_option("--bank-bytes", options.bank.bytes, "size of each memory bank (default 1 GiB)");
  app.add_option("--banks", options.bankCount, "number of banks, HBM[0]... (default 3: one per window of the data region)");
  app.add_option("-o,--output", output, "xclbin to write")->required();
  CLI11_PARSE(app, argc, argv);
  auto bytes = nnfab::xclbin::buildEmulationXclbin(options);
  if (!bytes) {
    fmt::print(stderr, "nnfab-xclbin: {}\n", bytes.status().message());
    return 1;
  }
  std::ofstream out(output, std::ios::binary);
  out.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  out.close();  // a full disk shows only when the buffer is flushed
  if (!out) {
    fmt::print(stderr, "nnfab-xclbin: cannot write {}\n", output);
    return 2;
  }
  return 0;
}
