// The sequencer of the nnfab core: start (program load, context restore), the
// checks at every instruction boundary, decode with the legality rules of
// docs/isa.md, execution, and the stop (context save, outputs).
#include "nnfab_core.h"

#include "core_alu.h"
#include "core_mem.h"
#include "core_tensor.h"
#include "isa/cycle_model.h"
#include "nnfab_isa.h"

namespace nnfab {
namespace hls {
namespace {

static constexpr uint32_t kContextWords = isa::kCONTEXT_BYTES / kWordBytes;
static constexpr uint32_t kWatchdogArmedBit = 31;  // WATCHDOG_STATE: armed flag above the 31-bit count
static constexpr uint32_t kWatchdogCountMask = (1u << kWatchdogArmedBit) - 1u;
static constexpr uint32_t kWordBits = 32;

struct CoreState {
  uint32_t pc;
  uint32_t regs[isa::kNUM_SCALAR_REGS];
  uint32_t wdArmed;
  uint32_t wdArms;
  uint64_t loopStart;
  uint64_t cycles;
  uint64_t iterations;
  uint64_t instret;
};

struct Stop {
  uint32_t status;
  uint32_t haltPc;
  uint32_t faultInfo;
};

// The trace of one start (MODE.TRACE): keep-first ring, dropped count and
// cycles per instruction class, written to the outputs when the core stops.
//
// The class cycles are not counted per instruction (in this C-simulation
// that bookkeeping was most of what MODE.TRACE cost, docs/performance.md
// "Profiling cost: counted per straight-line run"): a scalar instruction's
// cost depends on its opcode alone, so the core records only where each
// straight-line run of retired instructions began and ended (at a taken
// branch, HALT and the stop: a difference array over the pcs), and the stop
// turns that into visits per pc and the visits into cycles per class. A
// TENSOR instruction's cost depends on its operands: it is added when it
// retires. The result is the same sum as per instruction, and CYCLES does
// not change: the pass over the program is part of the stop, after CYCLES
// stopped counting (as the ring's dump).
struct Tracer {
  bool on;
  uint64_t* ring;
  uint32_t count;
  uint32_t dropped;
  uint64_t classCycles[isa::kNumTraceClasses];
  uint32_t runStart;  // pc where the current straight-line run began
  uint64_t* runEdges;  // [pc]: runs that began at pc minus runs that ended before it
};

// Per opcode: whether it is traced (bit 3: without BACKEDGE, bit 4: with it).
struct TraceTable {
  uint8_t info[256];
};
constexpr TraceTable makeTraceTable() {
  TraceTable t = {};
  for (uint32_t op = 0; op < 256; ++op) {
    t.info[op] = static_cast<uint8_t>((isa::traceBranch(op, 0) ? 8u : 0u) | (isa::traceBranch(op, 1) ? 16u : 0u));
  }
  return t;
}
constexpr TraceTable kTraceTable = makeTraceTable();

// A branch retired (called for branches only): into the ring if traced.
void traceBranch(Tracer& tr, const isa::Fields& f, uint32_t pc, uint64_t cyclesBefore, bool taken) {
  const uint32_t info = kTraceTable.info[f.opcode & 0xFFu];
  if ((info & (f.backedge != 0 ? 16u : 8u)) == 0) return;
  if (tr.count < isa::kTRACE_DEPTH) {
    tr.ring[tr.count] = isa::traceEntry(cyclesBefore, pc, taken, f.backedge);
    ++tr.count;
  } else {
    ++tr.dropped;
  }
}

// The straight-line run since tr.runStart retired up to (not including) end;
// the next one begins at next.
void endRun(Tracer& tr, uint32_t end, uint32_t next) {
  if (tr.runStart < end) {
    ++tr.runEdges[tr.runStart];
    --tr.runEdges[end];
  }
  tr.runStart = next;
}

uint32_t lo(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t hi(uint64_t v) { return static_cast<uint32_t>(v >> kWordBits); }
uint64_t join(uint32_t low, uint32_t high) { return (static_cast<uint64_t>(high) << kWordBits) | low; }

uint32_t watchdogState(const CoreState& st) { return (st.wdArmed << kWatchdogArmedBit) | st.wdArms; }

void clearState(CoreState& st) {
  st.pc = 0;
  for (uint32_t r = 0; r < isa::kNUM_SCALAR_REGS; ++r) st.regs[r] = 0;
  st.wdArmed = 0;
  st.wdArms = 0;
  st.loopStart = 0;
  st.cycles = 0;
  st.iterations = 0;
  st.instret = 0;
}

void saveContext(uint32_t* ctx, const CoreState& st) {
  uint32_t w[kContextWords];
  for (uint32_t i = 0; i < kContextWords; ++i) w[i] = 0;
  w[isa::kCtxMAGIC] = isa::kCONTEXT_MAGIC;
  w[isa::kCtxPC] = st.pc;
  w[isa::kCtxWD_ARMED] = st.wdArmed;
  w[isa::kCtxWD_ARMS] = st.wdArms;
  w[isa::kCtxLOOP_START] = lo(st.loopStart);
  w[isa::kCtxLOOP_START + 1] = hi(st.loopStart);
  w[isa::kCtxCYCLES] = lo(st.cycles);
  w[isa::kCtxCYCLES + 1] = hi(st.cycles);
  w[isa::kCtxITERATIONS] = lo(st.iterations);
  w[isa::kCtxITERATIONS + 1] = hi(st.iterations);
  w[isa::kCtxINSTRET] = lo(st.instret);
  w[isa::kCtxINSTRET + 1] = hi(st.instret);
  for (uint32_t r = 0; r < isa::kNUM_SCALAR_REGS; ++r) w[isa::kCtxREGS + r] = st.regs[r];
CONTEXT_SAVE:
  for (uint32_t i = 0; i < kContextWords; ++i) {
#pragma HLS PIPELINE II=1
    ctx[i] = w[i];
  }
}

// False when the area holds no context this core could have written.
bool restoreContext(const uint32_t* ctx, CoreState& st) {
  uint32_t w[kContextWords];
CONTEXT_RESTORE:
  for (uint32_t i = 0; i < kContextWords; ++i) {
#pragma HLS PIPELINE II=1
    w[i] = ctx[i];
  }
  if (w[isa::kCtxMAGIC] != isa::kCONTEXT_MAGIC || w[isa::kCtxWD_ARMED] > 1u ||
      (w[isa::kCtxWD_ARMS] & ~kWatchdogCountMask) != 0 || w[isa::kCtxREGS] != 0) {
    return false;
  }
  st.pc = w[isa::kCtxPC];
  st.wdArmed = w[isa::kCtxWD_ARMED];
  st.wdArms = w[isa::kCtxWD_ARMS];
  st.loopStart = join(w[isa::kCtxLOOP_START], w[isa::kCtxLOOP_START + 1]);
  st.cycles = join(w[isa::kCtxCYCLES], w[isa::kCtxCYCLES + 1]);
  st.iterations = join(w[isa::kCtxITERATIONS], w[isa::kCtxITERATIONS + 1]);
  st.instret = join(w[isa::kCtxINSTRET], w[isa::kCtxINSTRET + 1]);
  for (uint32_t r = 0; r < isa::kNUM_SCALAR_REGS; ++r) st.regs[r] = w[isa::kCtxREGS + r];
  return true;
}

// Which fields an instruction reads; every other field must be 0.
struct FieldUse {
  bool rd, ra, rb, rc, imm, backedge, type;
};

bool floatActivation(const isa::Fields& f) {
  return (f.opcode & isa::kClassMask) == isa::kClassTENSOR && f.type == isa::kTypeFLOAT32 &&
         isa::fnFloatActivation(f.opcode & isa::kFnMask);
}

// False for an unknown opcode or a function/type the class does not define.
bool fieldUse(const isa::Fields& f, FieldUse& u) {
  const uint32_t cls = f.opcode & isa::kClassMask;
  const uint32_t fn = f.opcode & isa::kFnMask;
  u.rd = u.ra = u.rb = u.rc = u.imm = u.backedge = u.type = false;
  switch (cls) {
    case isa::kClassCTRL:
      switch (f.opcode) {
        case isa::kOpNOP:
        case isa::kOpWDARM:
        case isa::kOpWDOFF: return true;
        case isa::kOpHALT: u.imm = true; return true;
        case isa::kOpJMP: u.imm = u.backedge = true; return true;
        case isa::kOpBNZ:
        case isa::kOpBZ: u.ra = u.imm = u.backedge = true; return true;
        case isa::kOpLI: u.rd = u.imm = true; return true;
        case isa::kOpLDW:
        case isa::kOpLDB: u.rd = u.ra = u.imm = true; return true;
        case isa::kOpSTW:
        case isa::kOpSTB: u.ra = u.rb = u.imm = true; return true;
        case isa::kOpSWAP: u.rd = u.ra = true; return true;
        default: return false;
      }
    case isa::kClassSALU:
      if (fn >= isa::kNumAluFns || isa::fnTensorOnly(fn)) return false;
      u.rd = u.ra = true;
      u.rb = isa::fnOperands(fn) >= 2;
      u.rc = isa::fnOperands(fn) >= 3;
      return true;
    case isa::kClassBRCMP:
      if (!isa::fnIsComparison(fn)) return false;
      u.ra = u.rb = u.imm = u.backedge = true;
      return true;
    case isa::kClassTENSOR:
      if (fn >= isa::kNumAluFns || ((isa::fnTypeMask(fn) >> f.type) & 1u) == 0) return false;
      u.rd = u.ra = u.imm = u.type = true;
      u.rb = isa::fnOperands(fn) >= 2;
      // FLOAT32 ADD/SUB/MUL/DIV read a fused activation code from RC (0..3).
      u.rc = isa::fnOperands(fn) >= 3 || floatActivation(f);
      return !floatActivation(f) || f.rc < kNumActivations;
    default:
      return false;
  }
}

bool isLegal(const isa::Fields& f) {
  FieldUse u;
  if (f.reserved != 0 || !fieldUse(f, u)) return false;
  return (u.rd || f.rd == 0) && (u.ra || f.ra == 0) && (u.rb || f.rb == 0) && (u.rc || f.rc == 0) &&
         (u.imm || f.imm == 0) && (u.backedge || f.backedge == 0) && (u.type || f.type == 0);
}

void writeReg(CoreState& st, uint32_t r, uint32_t v) {
  if (r != 0) st.regs[r] = v;  // r0 ignores writes
}

// Executes one legal instruction. Returns false when it stops the core (HALT
// or a fault: *stop says how); otherwise it has updated pc and the counters.
bool execute(const isa::Fields& f, CoreState& st, const DataRegion& region, const CycleParams& cp, Stop& stop,
             Tracer& tr) {
  const uint32_t cls = f.opcode & isa::kClassMask;
  const uint32_t fn = f.opcode & isa::kFnMask;
  const uint32_t a = st.regs[f.ra];
  const uint32_t b = st.regs[f.rb];
  uint32_t nextPc = st.pc + 1u;
  bool taken = false;
  bool branch = false;
  uint64_t cost = cycleCost(cp, CycleQuery{kCycleInstruction, f.opcode, 0, 0, 0});

  if (cls == isa::kClassSALU) {
    writeReg(st, f.rd, aluApply(fn, a, b, st.regs[f.rc]));
  } else if (cls == isa::kClassBRCMP) {
    taken = aluApply(fn, a, b, 0) != 0;
    branch = true;
  } else if (cls == isa::kClassTENSOR) {
    TensorOperands op;
    op.fn = fn;
    op.type = f.type;
    op.dst = st.regs[f.rd];
    op.src[0] = a;
    op.src[1] = b;
    op.src[2] = st.regs[f.rc];
    op.descriptor = f.imm;
    op.act = floatActivation(f) ? f.rc : 0u;
    if (op.act != 0) op.src[2] = 0;
    const TensorOutcome r = fn == isa::kFnFC ? executeFc(region, op, cp) : executeTensor(region, op, cp);
    if (r.status != isa::kStatusDONE) {
      stop.status = r.status;
      stop.haltPc = st.pc;
      // An FC descriptor it cannot run is reported like a bad encoding.
      stop.faultInfo = r.status == isa::kStatusILLEGAL_INSTRUCTION ? lo(isa::encodeFields(f)) : r.faultInfo;
      return false;
    }
    cost = r.cycles;
    if (tr.on) tr.classCycles[isa::kTraceClassTensor] += cost;
  } else {
    const uint64_t offset = static_cast<uint64_t>(a) + f.imm;  // no wrap-around
    switch (f.opcode) {
      case isa::kOpHALT:
        stop.status = f.imm == 0 ? isa::kStatusDONE : isa::kStatusPROGRAM_ERROR;
        stop.haltPc = st.pc;
        stop.faultInfo = f.imm;
        if (tr.on) endRun(tr, st.pc + 1u, st.pc + 1u);
        st.cycles += cost;  // HALT retires
        ++st.instret;
        return false;
      case isa::kOpJMP: taken = branch = true; break;
      case isa::kOpBNZ: taken = a != 0; branch = true; break;
      case isa::kOpBZ: taken = a == 0; branch = true; break;
      case isa::kOpLI: writeReg(st, f.rd, f.imm); break;
      case isa::kOpLDW:
      case isa::kOpSTW:
      case isa::kOpLDB:
      case isa::kOpSTB: {
        const bool word = f.opcode == isa::kOpLDW || f.opcode == isa::kOpSTW;
        const uint32_t bytes = word ? kWordBytes : 1u;
        // Window A only, through the data port (docs/isa.md "Memory model").
        if (offset % bytes != 0 || !inRegion(offset, bytes, region.windows.end[isa::kWindowA])) {
          stop.status = isa::kStatusACCESS_FAULT;
          stop.haltPc = st.pc;
          stop.faultInfo = lo(offset);
          return false;
        }
        if (f.opcode == isa::kOpLDW || f.opcode == isa::kOpLDB) {
          writeReg(st, f.rd, loadElement(readView(region, kPortData, isa::kWindowA), offset, bytes));
        } else {
          storeElement(writeView(region, kPortData, isa::kWindowA), offset, bytes, b);
        }
        break;
      }
      case isa::kOpSWAP: {
        const uint32_t old = st.regs[f.rd];
        writeReg(st, f.rd, a);
        writeReg(st, f.ra, old);
        break;
      }
      case isa::kOpWDARM:
        st.wdArmed = 1;
        st.wdArms = (st.wdArms + 1u) & kWatchdogCountMask;
        st.loopStart = st.cycles;
        break;
      case isa::kOpWDOFF: st.wdArmed = 0; break;
      default: break;  // NOP
    }
  }
  // Only branches pay for MODE.TRACE here: the ring, and the end of a
  // straight-line run when taken.
  if (branch && tr.on) {
    traceBranch(tr, f, st.pc, st.cycles, taken);
    if (taken) endRun(tr, st.pc + 1u, f.imm);
  }
  if (taken) {
    nextPc = f.imm;
    if (f.backedge != 0) ++st.iterations;
  }
  st.pc = nextPc;
  st.cycles += cost;
  ++st.instret;
  return true;
}

Stop stopAt(uint32_t status, uint32_t pc, uint32_t info) {
  Stop s = {status, pc, info};
  return s;
}

}  // namespace

void nnfab_core_ports(const uint64_t* prog, const DataPorts& ports, uint32_t srcb_start, uint32_t dst_start,
                      uint32_t* ctx, uint32_t prog_size, uint32_t data_size, uint32_t mode, uint32_t insn_limit, uint64_t loop_budget,
                      uint64_t exec_budget, volatile const uint32_t* preempt, volatile uint32_t* watchdog_state,
                      uint32_t* status, uint32_t* halt_pc, uint32_t* fault_info, uint32_t* features,
                      volatile uint64_t* cycles, volatile uint64_t* iterations, volatile uint64_t* instret, uint32_t* id,
                      uint32_t* isa_version, const TraceOutputs& trace, const CycleParams& params) {
  Tracer tr;
  tr.on = (mode & isa::kMODE_TRACE) != 0;
  tr.ring = trace.ring;
  tr.count = 0;
  tr.dropped = 0;
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) tr.classCycles[k] = 0;
  CoreState st;
  clearState(st);
  Stop stop = stopAt(isa::kStatusIDLE, 0, 0);
  const uint32_t instructions = prog_size / isa::kINSTRUCTION_BYTES;
  // The windows, latched at start like every argument.
  const DataRegion region = dataRegion(ports, srcb_start, dst_start, data_size);
  bool running = true;

  if (prog_size % isa::kINSTRUCTION_BYTES != 0 || instructions > isa::kMAX_PROGRAM_INSTRUCTIONS) {
    stop = stopAt(isa::kStatusPROGRAM_FAULT, 0, prog_size);
    running = false;
  } else if ((mode & isa::kModeResume) != 0) {
    if (!restoreContext(ctx, st)) {
      clearState(st);
      stop = stopAt(isa::kStatusBAD_CONTEXT, 0, ctx[isa::kCtxMAGIC]);
      running = false;
    }
  } else {
    // A resume reloads the program too, but CYCLES counts the execution
    // only, so that a preempted run reports the cycles of an uninterrupted one.
    st.cycles = cycleCost(params, CycleQuery{kCycleProgramLoad, prog_size, 0, 0, 0});
  }

  uint64_t pmem[isa::kMAX_PROGRAM_INSTRUCTIONS];
  if (running) {
  PROGRAM_LOAD:
    for (uint32_t i = 0; i < instructions; ++i) {
#pragma HLS PIPELINE II=1
      pmem[i] = prog[i];
    }
  }
  // MODE.TRACE's straight-line runs (Tracer): the first begins where this
  // start does.
  uint64_t runEdges[isa::kMAX_PROGRAM_INSTRUCTIONS + 1];
  tr.runEdges = runEdges;
  tr.runStart = st.pc;
  if (running && tr.on) {
  RUN_EDGES_CLEAR:
    for (uint32_t i = 0; i <= instructions; ++i) {
#pragma HLS PIPELINE II=1
      runEdges[i] = 0;
    }
  }

  uint32_t retired = 0;  // in this start, for INSN_LIMIT
  bool softReset = false;
MAIN:
  while (running) {
    *watchdog_state = watchdogState(st);
    *cycles = st.cycles;
    *iterations = st.iterations;
    *instret = st.instret;
    // Instruction boundary: budgets first, so that whether a budget expires
    // never depends on where preemptions or slices fell.
    if (st.wdArmed != 0 && loop_budget != 0 && st.cycles - st.loopStart > loop_budget) {
      stop = stopAt(isa::kStatusLOOP_TIMEOUT, st.pc, 0);
      break;
    }
    if (exec_budget != 0 && st.cycles >= exec_budget) {
      stop = stopAt(isa::kStatusEXEC_TIMEOUT, st.pc, 0);
      break;
    }
    // Soft reset (docs/register-map.md "Soft reset"): SOFT_RESET_KEY in
    // PREEMPT ends the run here, saving nothing, and leaves the core as
    // after ap_rst_n: STATUS IDLE, counters 0. (An HLS core issues its
    // memory accesses synchronously: nothing is outstanding at a boundary.)
    if (*preempt == isa::kSOFT_RESET_KEY) {
      if (tr.on) endRun(tr, st.pc, st.pc);
      clearState(st);
      stop = stopAt(isa::kStatusIDLE, 0, 0);
      softReset = true;
      break;
    }
    if ((*preempt & isa::kPreemptRequest) != 0) {
      saveContext(ctx, st);
      stop = stopAt(isa::kStatusPREEMPTED, st.pc, 0);
      break;
    }
    if (insn_limit != 0 && retired >= insn_limit) {
      saveContext(ctx, st);
      stop = stopAt(isa::kStatusSLICE_END, st.pc, 0);
      break;
    }
    if (st.pc >= instructions) {
      stop = stopAt(isa::kStatusPROGRAM_FAULT, st.pc, st.pc);
      break;
    }
    const uint64_t insn = pmem[st.pc];
    const isa::Fields f = isa::decodeFields(insn);
    if (!isLegal(f)) {
      stop = stopAt(isa::kStatusILLEGAL_INSTRUCTION, st.pc, lo(insn));
      break;
    }
    if (!execute(f, st, region, params, stop, tr)) break;
    ++retired;
  }

  if (running && tr.on) {
    // The last run ends where the core stopped (HALT ended its own; a
    // faulting instruction did not retire: st.pc is its pc). Then visits
    // per pc, and each scalar instruction's cost times its visits into its
    // class.
    endRun(tr, st.pc, st.pc);
    uint64_t visits = 0;
  CLASS_CYCLES:
    for (uint32_t i = 0; i < instructions; ++i) {
#pragma HLS PIPELINE II=1
      visits += runEdges[i];
      const uint32_t opcode = isa::decodeFields(pmem[i]).opcode;
      const uint32_t cls = isa::traceClassOf(opcode);
      if (visits != 0 && cls != isa::kTraceClassTensor) {
        tr.classCycles[cls] += visits * cycleCost(params, CycleQuery{kCycleInstruction, opcode, 0, 0, 0});
      }
    }
  }

  *watchdog_state = watchdogState(st);
  *cycles = st.cycles;
  *iterations = st.iterations;
  *instret = st.instret;
  *status = stop.status;
  *halt_pc = stop.haltPc;
  *fault_info = stop.faultInfo;
  *id = isa::kCORE_ID;
  *isa_version = isa::kIsaVersion;
  *features = nnfab::hls::kCoreFeatures;
  *trace.count = tr.count;
  *trace.dropped = tr.dropped;
  for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) *trace.classCycles[k] = tr.classCycles[k];
  // The stop sequence's last part (docs/isa.md "Trace ring"): CYCLES is
  // final above; the header beat (FEATURE_TRACE_HEADER: the counters just
  // written, also for an empty ring) and then the entries go to TRACE_ADDR
  // before ap_done.
  if (tr.on && trace.mem != 0 && !softReset) {
    uint64_t header[isa::kTraceHeaderWords64];
    isa::traceHeader(header, tr.count, tr.dropped, tr.classCycles);
  TRACE_HEADER:
    for (uint32_t i = 0; i < isa::kTraceHeaderWords64; ++i) {
#pragma HLS PIPELINE II=1
      trace.mem[i] = header[i];
    }
  TRACE_DUMP:
    for (uint32_t i = 0; i < tr.count; ++i) {
#pragma HLS PIPELINE II=1
      trace.mem[isa::kTraceHeaderWords64 + i] = tr.ring[i];
    }
  }
}

}  // namespace hls
}  // namespace nnfab

extern "C" void nnfab_core(const uint64_t* prog, uint32_t* data, uint32_t* ctx, uint32_t prog_size,
                           uint32_t data_size, uint32_t mode, uint32_t insn_limit, uint64_t loop_budget,
                           uint64_t exec_budget, volatile const uint32_t* preempt, volatile uint32_t* watchdog_state,
                           uint32_t* status, uint32_t* halt_pc, uint32_t* fault_info, uint32_t* features, volatile uint64_t* cycles,
                           volatile uint64_t* iterations, volatile uint64_t* instret, uint32_t* id, uint32_t* isa_version,
                           uint32_t* trace_count, uint32_t* trace_dropped, uint64_t* class_cycles_ctrl,
                           uint64_t* class_cycles_mem, uint64_t* class_cycles_salu, uint64_t* class_cycles_branch,
                           uint64_t* class_cycles_tensor, uint64_t* trace_mem,
                           uint64_t trace[nnfab::isa::kTRACE_DEPTH], const uint32_t* srcb, uint32_t* dst,
                           uint32_t srcb_start, uint32_t dst_start) {
  // Offsets pinned to docs/register-map.md; pragma arguments must be
  // literals, so the static_asserts below tie them to the generated map.
#pragma HLS INTERFACE mode=m_axi port=prog bundle=prog offset=slave depth=8192 max_read_burst_length=64
#pragma HLS INTERFACE mode=m_axi port=data bundle=data offset=slave depth=65536 max_read_burst_length=64 max_write_burst_length=64
#pragma HLS INTERFACE mode=m_axi port=ctx bundle=data offset=slave depth=64
#pragma HLS INTERFACE mode=m_axi port=trace_mem bundle=data offset=slave depth=264 max_write_burst_length=32
#pragma HLS INTERFACE mode=m_axi port=srcb bundle=srcb offset=slave depth=65536 max_read_burst_length=64
#pragma HLS INTERFACE mode=m_axi port=dst bundle=dst offset=slave depth=65536 max_write_burst_length=64
#pragma HLS INTERFACE mode=s_axilite port=prog offset=0x10 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=data offset=0x18 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=ctx offset=0x20 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=prog_size offset=0x28 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=data_size offset=0x2C bundle=control
#pragma HLS INTERFACE mode=s_axilite port=mode offset=0x30 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=insn_limit offset=0x34 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=loop_budget offset=0x38 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=exec_budget offset=0x40 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=preempt offset=0x48 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=watchdog_state offset=0x4C bundle=control
#pragma HLS INTERFACE mode=s_axilite port=status offset=0x50 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=halt_pc offset=0x54 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=fault_info offset=0x58 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=features offset=0x5C bundle=control
#pragma HLS INTERFACE mode=s_axilite port=cycles offset=0x60 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=iterations offset=0x68 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=instret offset=0x70 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=id offset=0x78 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=isa_version offset=0x7C bundle=control
#pragma HLS INTERFACE mode=s_axilite port=trace_count offset=0x80 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=trace_dropped offset=0x84 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=class_cycles_ctrl offset=0x88 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=class_cycles_mem offset=0x90 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=class_cycles_salu offset=0x98 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=class_cycles_branch offset=0xA0 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=class_cycles_tensor offset=0xA8 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=trace_mem offset=0xB0 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=srcb offset=0xB8 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=dst offset=0xC0 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=srcb_start offset=0xC8 bundle=control
#pragma HLS INTERFACE mode=s_axilite port=dst_start offset=0xCC bundle=control
#pragma HLS INTERFACE mode=s_axilite port=trace offset=0x800 bundle=control
  // Outputs without the ap_vld word Vitis HLS would otherwise put after each
  // (it would collide with the next register of the map).
#pragma HLS INTERFACE mode=ap_none port=watchdog_state
#pragma HLS INTERFACE mode=ap_none port=status
#pragma HLS INTERFACE mode=ap_none port=halt_pc
#pragma HLS INTERFACE mode=ap_none port=fault_info
#pragma HLS INTERFACE mode=ap_none port=features
#pragma HLS INTERFACE mode=ap_none port=cycles
#pragma HLS INTERFACE mode=ap_none port=iterations
#pragma HLS INTERFACE mode=ap_none port=instret
#pragma HLS INTERFACE mode=ap_none port=id
#pragma HLS INTERFACE mode=ap_none port=isa_version
#pragma HLS INTERFACE mode=ap_none port=trace_count
#pragma HLS INTERFACE mode=ap_none port=trace_dropped
#pragma HLS INTERFACE mode=ap_none port=class_cycles_ctrl
#pragma HLS INTERFACE mode=ap_none port=class_cycles_mem
#pragma HLS INTERFACE mode=ap_none port=class_cycles_salu
#pragma HLS INTERFACE mode=ap_none port=class_cycles_branch
#pragma HLS INTERFACE mode=ap_none port=class_cycles_tensor
#pragma HLS INTERFACE mode=s_axilite port=return bundle=control
#pragma HLS INTERFACE mode=ap_ctrl_hs port=return
  static_assert(nnfab::isa::kRegPROG_ADDR == 0x10 && nnfab::isa::kRegDATA_ADDR == 0x18 &&
                    nnfab::isa::kRegCTX_ADDR == 0x20 && nnfab::isa::kRegPROG_SIZE == 0x28 &&
                    nnfab::isa::kRegDATA_SIZE == 0x2C && nnfab::isa::kRegMODE == 0x30 &&
                    nnfab::isa::kRegINSN_LIMIT == 0x34 && nnfab::isa::kRegLOOP_BUDGET == 0x38 &&
                    nnfab::isa::kRegEXEC_BUDGET == 0x40 && nnfab::isa::kRegPREEMPT == 0x48 &&
                    nnfab::isa::kRegWATCHDOG_STATE == 0x4C && nnfab::isa::kRegSTATUS == 0x50 &&
                    nnfab::isa::kRegHALT_PC == 0x54 && nnfab::isa::kRegFAULT_INFO == 0x58 &&
                    nnfab::isa::kRegFEATURES == 0x5C &&
                    nnfab::isa::kRegCYCLES == 0x60 && nnfab::isa::kRegITERATIONS == 0x68 &&
                    nnfab::isa::kRegINSTRET == 0x70 && nnfab::isa::kRegID == 0x78 &&
                    nnfab::isa::kRegISA_VERSION == 0x7C && nnfab::isa::kRegTRACE_COUNT == 0x80 &&
                    nnfab::isa::kRegTRACE_DROPPED == 0x84 && nnfab::isa::kRegCLASS_CYCLES_CTRL == 0x88 &&
                    nnfab::isa::kRegCLASS_CYCLES_MEM == 0x90 && nnfab::isa::kRegCLASS_CYCLES_SALU == 0x98 &&
                    nnfab::isa::kRegCLASS_CYCLES_BRANCH == 0xA0 && nnfab::isa::kRegCLASS_CYCLES_TENSOR == 0xA8 &&
                    nnfab::isa::kRegTRACE_ADDR == 0xB0 &&
                    nnfab::isa::kRegSRCB_ADDR == 0xB8 && nnfab::isa::kRegDST_ADDR == 0xC0 &&
                    nnfab::isa::kRegSRCB_START == 0xC8 && nnfab::isa::kRegDST_START == 0xCC &&
                    nnfab::isa::kTRACE_RING_OFFSET == 0x800,
                "the INTERFACE offsets above no longer match isa/isa.json");
  static_assert(nnfab::isa::kMAX_PROGRAM_INSTRUCTIONS == 8192 && nnfab::isa::kCONTEXT_BYTES / 4 == 64 &&
                    nnfab::isa::kTRACE_DEPTH == 256 && nnfab::isa::kTRACE_HEADER_BYTES == 64,
                "the m_axi depths above no longer match isa/isa.json");
  const nnfab::hls::TraceOutputs outputs = {
      trace, trace_count, trace_dropped,
      {class_cycles_ctrl, class_cycles_mem, class_cycles_salu, class_cycles_branch, class_cycles_tensor},
      trace_mem};
  const nnfab::hls::DataPorts ports = {data, srcb, dst};
  nnfab::hls::nnfab_core_ports(prog, ports, srcb_start, dst_start, ctx, prog_size, data_size, mode, insn_limit,
                               loop_budget, exec_budget, preempt, watchdog_state, status, halt_pc, fault_info, features, cycles, iterations,
                               instret, id, isa_version, outputs, nnfab::hls::kDefaultCycleParams);
}
