// Preemption, slices and resume on the RTL: a preempted or sliced execution
// gives exactly the result of an uninterrupted one (CYCLES included: the
// context I/O and the resume's program reload are not counted), and the
// context the RTL saves is the one the HLS core saves.
#include <random>

#include "sim/random_program.h"
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

constexpr uint32_t kDump = 64;
// The most a read waits for the posted stores before it (docs/rtl.md): the
// queue's AW/W, then the memory model's write response latency.
constexpr uint32_t kStoreDrainCycles = 8;

// A counter loop of n iterations that also accumulates r4 = r4 * r1 + r1,
// with the watchdog armed, then dumps every register.
Asm accumulatingLoop(int32_t n) {
  Asm a;
  a.emit(insn::li(1, 0));
  a.emit(insn::li(2, n));
  a.emit(insn::li(3, 1));
  a.emit(insn::wdarm());
  const uint32_t test = a.emit(0);
  const uint32_t top = a.emit(insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(insn::alu(isa::kFnMUL, 4, 4, 1));
  a.emit(insn::alu(isa::kFnADD, 4, 4, 1));
  a.emit(insn::brcmp(isa::kFnLT, 1, 2, top, true));
  a.code[test] = insn::brcmp(isa::kFnGE, 1, 2, a.here());
  a.emit(insn::wdoff());
  a.dumpRegistersAndHalt(kDump);
  return a;
}

TEST(SimPreempt, PreemptedAndResumedLoopMatchesAnUninterruptedRun) {
  const Asm a = accumulatingLoop(100000);
  SimBackend backend(smallSim());
  const Outcome whole = runOn(backend, a.code, {}, 256);
  ASSERT_TRUE(whole.report.completed());

  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, {}, 256);
  ASSERT_TRUE(p.isOk());
  CoreDriver driver(backend);
  RunLimits preempt;
  preempt.preemptRequested = [] { return true; };  // at the driver's first poll
  int stops = 0;
  Result<RunReport> r = driver.run(p->loaded(), preempt);
  ASSERT_TRUE(r.isOk());
  while (r->resumable()) {
    ++stops;
    EXPECT_EQ(r->coreStatus, isa::kStatusPREEMPTED);
    const backends::SimRunEvents e = backend.lastRunEvents();
    EXPECT_GT(e.preemptWritten, e.startAccepted);
    // Request -> AP_DONE: finish the instruction, save 4 beats, drain.
    EXPECT_LT(e.done - e.preemptWritten, 64u);
    r = driver.run(p->resumed(), stops < 3 ? preempt : RunLimits{});
    ASSERT_TRUE(r.isOk());
  }
  EXPECT_GE(stops, 1);
  EXPECT_TRUE(r->completed()) << r->status.message();
  EXPECT_EQ(r->cycles, whole.report.cycles);
  EXPECT_EQ(r->instret, whole.report.instret);
  EXPECT_EQ(r->iterations, whole.report.iterations);
  std::vector<uint8_t> data(256);
  ASSERT_TRUE(p->readData(0, data.data(), data.size()).isOk());
  EXPECT_TRUE(data == whole.data);
}

// Runs `a` in slices of `limit` instructions until it stops otherwise.
Outcome runSliced(FabricBackend& backend, const Asm& a, const std::vector<uint8_t>& image, uint64_t bytes,
                  uint32_t limit, uint32_t* slices) {
  Outcome out;
  Result<DeviceProgram> p = DeviceProgram::load(backend, a.code, image, bytes);
  EXPECT_TRUE(p.isOk());
  if (!p) return out;
  CoreDriver driver(backend);
  RunLimits limits;
  limits.insnLimit = limit;
  Result<RunReport> r = driver.run(p->loaded(), limits);
  *slices = 1;
  while (r && r->coreStatus == isa::kStatusSLICE_END) {
    r = driver.run(p->resumed(), limits);
    ++*slices;
  }
  EXPECT_TRUE(r.isOk());
  if (!r) return out;
  out.report = *r;
  out.data.resize(bytes);
  EXPECT_TRUE(p->readData(0, out.data.data(), bytes).isOk());
  return out;
}

TEST(SimPreempt, SlicedRandomProgramsMatchUninterruptedRuns) {
  std::mt19937 rng(11);
  SimBackend sim(smallSim());
  for (int i = 0; i < randomProgramCount(40); ++i) {
    const RandomProgram p = randomProgram(rng);
    const Outcome whole = runOn(sim, p.a.code, p.image, p.dataBytes);
    uint32_t slices = 0;
    const Outcome sliced = runSliced(sim, p.a, p.image, p.dataBytes, 1 + i % 7, &slices);
    expectSameArchitecture(whole, sliced, ("program " + std::to_string(i)).c_str());
    // A stop drains the posted stores, so a read right after a slice
    // boundary does not wait for them: at most a few cycles less per slice.
    EXPECT_LE(sliced.report.cycles, whole.report.cycles) << i;
    EXPECT_LE(whole.report.cycles - sliced.report.cycles, uint64_t{kStoreDrainCycles} * slices) << i;
    if (HasFailure()) break;
  }
}

// The context after INSN_LIMIT instructions: registers, pc, watchdog and
// counters as the HLS core saves them (CYCLES too: scalar code only).
TEST(SimPreempt, SavedContextEqualsTheHlsCoresContext) {
  std::mt19937 rng(12);
  HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  RandomProgramOptions o;
  o.tensors = false;
  o.faults = false;
  o.loads = false;
  for (int i = 0; i < randomProgramCount(40); ++i) {
    const RandomProgram p = randomProgram(rng, o);
    const uint32_t limit = 5 + static_cast<uint32_t>(rng() % 60);
    std::vector<uint32_t> ctx[2];
    FabricBackend* backends[2] = {&hls, &sim};
    for (int b = 0; b < 2; ++b) {
      Result<DeviceProgram> d = DeviceProgram::load(*backends[b], p.a.code, p.image, p.dataBytes);
      ASSERT_TRUE(d.isOk());
      CoreDriver driver(*backends[b]);
      RunLimits limits;
      limits.insnLimit = limit;
      Result<RunReport> r = driver.run(d->loaded(), limits);
      ASSERT_TRUE(r.isOk());
      if (r->coreStatus != isa::kStatusSLICE_END) break;  // ended before the limit
      ctx[b].resize(isa::kCONTEXT_BYTES / 4);
      ASSERT_TRUE(backends[b]->copyFromDevice(ctx[b].data(), d->loaded().context, isa::kCONTEXT_BYTES).isOk());
    }
    EXPECT_EQ(ctx[0], ctx[1]) << "program " << i << " limit " << limit;
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
