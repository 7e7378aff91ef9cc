// Simulation speed of the sim device (docs/sim.md): simulated ap_clk cycles
// per wall-clock second for a scalar loop, a scalar loop through memory
// (a load and a store per iteration: the data ports' shared clock ticks),
// a streaming tensor ADD on the vector engine and a FLOAT32 ADD on the
// element engine, measured through the backend as a user sees it, and the
// cost of one register access. Not a ctest test.
//   sim_speed [iterations] [tensor elements] [memory-loop iterations]
// A count of 0 skips its workload.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/sim_backend.h"
#include "fabric/core_driver.h"
#include "fabric/device_program.h"
#include "fabric/insn.h"

namespace {

using namespace nnfab;
using namespace nnfab::fabric;

// CPU time of the whole process (every thread: the worker that clocks the
// model included), which a loaded machine does not inflate as it does the
// wall time.
double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

void measure(const char* what, const std::vector<uint64_t>& code, const std::vector<uint8_t>& image) {
  backends::SimBackend backend;
  Result<DeviceProgram> p = DeviceProgram::load(backend, code, image, image.size());
  if (!p) {
    std::fprintf(stderr, "%s\n", p.status().message().c_str());
    std::exit(1);
  }
  CoreDriver driver(backend);
  const uint64_t before = backend.simulatedCycles();
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = cpuSeconds();
  // The driver's progress polls are register transactions clocked through
  // the RTL, a few per poll interval of wall time: under valgrind
  // (scripts/sim_instructions.sh), 50 times slower, the default 1 ms would
  // make them a share of the loop's cycles that depends on the machine.
  // One poll per second keeps them out of the count.
  RunLimits limits;
  limits.pollInterval = std::chrono::seconds(1);
  limits.hangTimeout = std::chrono::seconds(60);
  Result<RunReport> r = driver.run(p->loaded(), limits);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpuSeconds() - cpuStart;
  const uint64_t cycles = backend.simulatedCycles() - before;
  if (!r || !r->completed()) {
    std::fprintf(stderr, "%s: run failed\n", what);
    std::exit(1);
  }
  std::printf("%-34s %12llu cycles (CYCLES %llu) in %.3f s: %.2f M cycles/s (CPU %.3f s: %.2f M cycles/s)\n",
              what, static_cast<unsigned long long>(cycles), static_cast<unsigned long long>(r->cycles), seconds,
              static_cast<double>(cycles) / seconds / 1e6, cpu, static_cast<double>(cycles) / cpu / 1e6);
}

// What one AXI4-Lite register access costs through the backend: simulated
// cycles and wall time, one call per access (a hand-off to the worker
// thread each) against batches of 16 (FabricBackend::accessRegisters).
void measureRegisterAccess() {
  backends::SimBackend backend;
  constexpr int kAccesses = 4096;
  constexpr size_t kBatch = 16;
  auto time = [&](const char* what, auto&& body) {
    const uint64_t before = backend.simulatedCycles();
    const auto start = std::chrono::steady_clock::now();
    body();
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-34s %6.2f cycles and %6.2f us per access\n", what,
                static_cast<double>(backend.simulatedCycles() - before) / kAccesses, us / kAccesses);
  };
  time("register reads, one by one", [&] {
    for (int k = 0; k < kAccesses; ++k) backend.readRegister(isa::kRegSTATUS);
  });
  time("register reads, batches of 16", [&] {
    std::vector<RegisterAccess> batch(kBatch, RegisterAccess{RegisterAccess::Kind::READ, isa::kRegSTATUS, 0});
    for (int k = 0; k < kAccesses; k += static_cast<int>(kBatch)) backend.accessRegisters(batch);
  });
  time("register writes, batches of 16", [&] {
    std::vector<RegisterAccess> batch(kBatch, RegisterAccess{RegisterAccess::Kind::WRITE, isa::kRegINSN_LIMIT, 0});
    for (int k = 0; k < kAccesses; k += static_cast<int>(kBatch)) backend.accessRegisters(batch);
  });
}

}  // namespace

int main(int argc, char** argv) {
  const int32_t n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const uint32_t elements = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : (1u << 20);
  const int32_t memoryIterations = argc > 3 ? std::atoi(argv[3]) : 100000;

  std::vector<uint64_t> loop = {insn::li(1, 0), insn::li(2, n), insn::li(3, 1), 0,
                                insn::alu(isa::kFnADD, 1, 1, 3), insn::brcmp(isa::kFnLT, 1, 2, 4, true),
                                insn::stw(1, 0, 0), insn::halt()};
  loop[3] = insn::brcmp(isa::kFnGE, 1, 2, 6);
  if (n > 0) measure("counter loop (scalar)", loop, std::vector<uint8_t>(64, 0));

  // word[0] += 1 through memory, memoryIterations times.
  const std::vector<uint64_t> memoryLoop = {insn::li(1, 0),
                                            insn::li(2, memoryIterations),
                                            insn::li(3, 1),
                                            insn::li(5, 0),
                                            insn::brcmp(isa::kFnGE, 1, 2, 10),
                                            insn::ldw(4, 5, 0),
                                            insn::alu(isa::kFnADD, 4, 4, 3),
                                            insn::stw(4, 5, 0),
                                            insn::alu(isa::kFnADD, 1, 1, 3),
                                            insn::brcmp(isa::kFnLT, 1, 2, 5, true),
                                            insn::halt()};
  if (memoryIterations > 0) measure("load/store loop (scalar memory)", memoryLoop, std::vector<uint8_t>(64, 0));

  if (elements > 0) {
    std::vector<uint8_t> image(64 + 12 * uint64_t{elements}, 1);
    const uint32_t desc[16] = {1, 1, 1, elements, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
    std::memcpy(image.data(), desc, sizeof(desc));
    auto add = [&](uint32_t type) {
      return std::vector<uint64_t>{insn::li(1, static_cast<int32_t>(64 + 8 * elements)), insn::li(2, 64),
                                   insn::li(3, static_cast<int32_t>(64 + 4 * elements)),
                                   insn::tensor(isa::kFnADD, type, 1, 2, 3, 0, 0), insn::halt()};
    };
    measure("tensor ADD INT32 (vector path)", add(isa::kTypeINT32), image);
    measure("tensor ADD FLOAT32 (element path)", add(isa::kTypeFLOAT32), image);
  }
  measureRegisterAccess();
  return 0;
}
