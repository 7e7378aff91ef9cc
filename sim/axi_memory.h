// A cycle-level AXI4 slave over a flat device memory, for one master port of
// the Verilated core: reads with a fixed latency (cycles from the AR
// handshake to the first beat), one beat per cycle per channel, a bounded
// number of outstanding read bursts; writes with the data before or after
// the address; protocol checks that throw AxiProtocolError (an RTL bug, not
// an input error); and fault injection (SLVERR at an address or at the next
// access, and a memory that stops answering). docs/sim.md.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "nnfab_isa.h"

namespace nnfab::sim {

inline constexpr uint32_t kBeatBytes = isa::kMEM_BEAT_BYTES;
inline constexpr uint32_t kBeatWords = kBeatBytes / sizeof(uint32_t);
using Beat = std::array<uint32_t, kBeatWords>;

class AxiProtocolError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct AxiMemoryConfig {
  uint32_t readLatency = isa::kCycle_mem_latency;  // AR handshake -> first R beat, in cycles
  uint32_t maxOutstandingReads = 8;                // read bursts accepted and not yet fully returned
  uint32_t writeResponseLatency = 2;               // last W beat -> B
  uint32_t maxOutstandingWrites = 16;              // AW accepted and not yet answered
  // Bandwidth: cycles from one data beat to the next on each channel (1 =
  // a 64-byte beat every cycle; 2 = half that bandwidth, ...; 0 counts as 1).
  uint32_t readBeatInterval = 1;
  uint32_t writeBeatInterval = 1;
  // The bytes of a write burst land in memory only when its B response is
  // taken, not as its W beats arrive: nothing but the response promises a
  // write is visible, and a write through one master may land after a read
  // through another (tests of ordering across the core's data ports).
  bool writesVisibleAtResponse = false;
};

// The master's outputs in one cycle (sampled before the clock edge).
struct AxiMasterOut {
  bool arvalid = false;
  uint64_t araddr = 0;
  uint32_t arlen = 0, arsize = 0, arburst = 0;
  bool rready = false;
  bool awvalid = false;
  uint64_t awaddr = 0;
  uint32_t awlen = 0, awsize = 0, awburst = 0;
  bool wvalid = false;
  Beat wdata{};
  uint64_t wstrb = 0;
  bool wlast = false;
  bool bready = false;
};

// What the slave drives in one cycle.
struct AxiSlaveOut {
  bool arready = false;
  bool rvalid = false;
  Beat rdata{};
  uint32_t rresp = 0;
  bool rlast = false;
  bool awready = false;
  bool wready = false;
  bool bvalid = false;
  uint32_t bresp = 0;
};

class AxiMemory {
 public:
  // Maps a 64-byte aligned device address to its 64 bytes, or nullptr where
  // there is no memory (answered with SLVERR).
  using BeatMap = std::function<uint8_t*(uint64_t address)>;
  static constexpr uint32_t kOkay = 0;
  static constexpr uint32_t kSlvErr = 2;

  AxiMemory(std::string name, AxiMemoryConfig config, BeatMap map);

  // The slave's outputs for cycle `cycle`, from its state.
  AxiSlaveOut drive(uint64_t cycle);
  // The same into `out`, whose rdata keeps its bytes unless a beat is
  // driven (SimHarness reuses one AxiSlaveOut per port: no 64-byte clear
  // per cycle).
  void drive(uint64_t cycle, AxiSlaveOut& out);
  // The clock edge at the end of `cycle`: every handshake of `master` with
  // `slave` (what drive() returned) takes effect.
  void edge(uint64_t cycle, const AxiMasterOut& master, const AxiSlaveOut& slave);

  // Back to no transaction in flight and no fault (the core's reset).
  void reset();
  // Every later beat at this 64-byte address is answered with SLVERR.
  void failAddress(uint64_t address) { failAddress_ = address & ~uint64_t{kBeatBytes - 1}; }
  // The next read beat or write burst, wherever it goes, gets SLVERR.
  void failNextAccess() { failNext_ = true; }
  // The memory stops answering: no ready, no data, no response.
  void hang() { hung_ = true; }
  // A misbehaving slave: one write response nobody asked for, at once. The
  // core's assertions must catch it (docs/rtl.md "Assertions").
  void respondUnasked() { responses_.push_back(Response{kOkay, 0, {}}); }

  const AxiMemoryConfig& config() const { return config_; }
  bool idle() const { return reads_.empty() && writes_.empty() && wbeats_.empty() && responses_.empty(); }
  // Idle, and drive() gives the same outputs as in the previous cycle until
  // a VALID arrives (nothing held waiting, no beat interval running, not
  // hung): a harness may skip drive() and edge() while the master raises
  // no VALID.
  bool quiet(uint64_t cycle) const {
    return idle() && !hung_ && !pendingAr_ && !pendingAw_ && cycle >= nextWriteBeat_ && cycle >= nextReadBeat_;
  }
  // With work in flight, the first cycle after `cycle` from which drive()
  // may give other outputs than at `cycle` (a read's first or next beat, a
  // write response, the end of a beat interval), provided the master raises
  // no VALID until then: in between nothing is offered to the master (no
  // RVALID, no BVALID), every READY stays as it is, and edge() changes
  // nothing, so a harness may clock those cycles without drive() and
  // edge(). `cycle` itself when drive() offers something now (or a VALID
  // is held waiting, or the memory hangs); kNever when quiet(cycle).
  static constexpr uint64_t kNever = ~uint64_t{0};
  uint64_t quietUntil(uint64_t cycle) const;

 private:
  struct Burst {
    uint64_t address;
    uint32_t beats;
    uint32_t done = 0;
    uint64_t readyCycle = 0;
    bool error = false;
  };
  struct WBeat {
    Beat data;
    uint64_t strb;
    bool last;
  };
  // A beat whose bytes wait for the response (writesVisibleAtResponse).
  struct Landing {
    uint8_t* bytes;
    WBeat beat;
  };
  struct Response {
    uint32_t resp;
    uint64_t readyCycle;
    std::vector<Landing> landings;  // writesVisibleAtResponse only
  };

  [[noreturn]] void violation(const std::string& what) const;
  void checkAddress(const char* channel, uint64_t address, uint32_t len, uint32_t size, uint32_t burst) const;
  bool failBeat(uint64_t address);
  void applyWrites(uint64_t cycle);
  static void store(uint8_t* bytes, const WBeat& w);

  const std::string name_;
  const AxiMemoryConfig config_;
  const BeatMap map_;
  std::deque<Burst> reads_;
  std::deque<Burst> writes_;  // accepted AW, waiting for their W beats
  std::deque<WBeat> wbeats_;  // W beats that came before their AW
  std::deque<Response> responses_;
  std::vector<Landing> landing_;  // beats of the burst being written, until its last
  std::optional<uint64_t> failAddress_;
  bool failNext_ = false;
  bool hung_ = false;
  uint64_t nextReadBeat_ = 0, nextWriteBeat_ = 0;  // first cycle the next R / W beat may pass
  // AXI: a VALID, once raised, stays with the same payload until READY.
  std::optional<AxiMasterOut> pendingAr_, pendingAw_;
};

}  // namespace nnfab::sim
