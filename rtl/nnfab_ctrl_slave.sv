// AXI4-Lite control slave and register file of docs/register-map.md, with
// the ap_ctrl_hs handshake: AP_START set by the host and cleared when the
// core accepts it, AP_DONE/AP_READY clear-on-read, AP_IDLE live; GIE/IER
// masked, ISR toggle-on-write and set from IER when the core stops; PREEMPT
// cleared by the core when it stops. Arguments are plain registers here; the
// sequencer latches them when it accepts the start (the windows' too:
// SRCB_ADDR, DST_ADDR, SRCB_START, DST_START; bits 5:0 are dropped there). AW and W are accepted in
// either order; one transaction of each direction at a time.
// Soft reset (docs/register-map.md "Soft reset"): SOFT_RESET_KEY written to
// PREEMPT as one whole word raises soft_reset until the core reports
// soft_reset_done; meanwhile AP_IDLE reads 0 and AP_START is refused, and
// the done clears everything the core reported (AP_START/DONE/READY, ISR,
// PREEMPT). What the host wrote (arguments, GIE, IER) is kept.
`include "nnfab_isa.svh"

// The harness's model (NNFAB_SIM_PULSE_CLOCK, sim/nnfab_sim_top.sv) clocks
// the slave's registers with a gated clock that stands still between host
// transactions and core events (the end of this file); every other build,
// synthesis included, with clk.
`ifdef NNFAB_SIM_PULSE_CLOCK
`define NNFAB_CTRL_CLK c_clk
`else
`define NNFAB_CTRL_CLK clk
`endif

module nnfab_ctrl_slave (
    input  logic        clk,
    input  logic        rst,
    // AXI4-Lite
    input  logic        awvalid,
    output logic        awready,
    input  logic [11:0] awaddr,
    input  logic        wvalid,
    output logic        wready,
    input  logic [31:0] wdata,
    input  logic [3:0]  wstrb,
    output logic        bvalid,
    input  logic        bready,
    output logic [1:0]  bresp,
    input  logic        arvalid,
    output logic        arready,
    input  logic [11:0] araddr,
    output logic        rvalid,
    input  logic        rready,
    output logic [31:0] rdata,
    output logic [1:0]  rresp,
    /* verilator lint_off SYMRSVDWORD */
    output logic        interrupt,
    /* verilator lint_on SYMRSVDWORD */
    // to and from the core
    output logic        ap_start,
    input  logic        start_accepted,  // pulse: the core latched the arguments
    input  logic        core_idle,
    input  logic        core_done,       // pulse: the core stopped
    output logic        soft_reset,      // level: a soft reset is under way
    input  logic        soft_reset_done, // pulse: the core is idle again
    output logic [63:0] prog_addr,
    output logic [63:0] data_addr,
    // the data region's windows B and D (docs/isa.md "Memory model")
    output logic [63:0] srcb_addr,
    output logic [63:0] dst_addr,
    output logic [31:0] srcb_start,
    output logic [31:0] dst_start,
    output logic [63:0] ctx_addr,
    output logic [31:0] prog_size,
    output logic [31:0] data_size,
    output logic [31:0] mode,
    output logic [31:0] insn_limit,
    output logic [63:0] loop_budget,
    output logic [63:0] exec_budget,
    output logic [63:0] trace_addr,
    output logic        preempt,
    input  logic [31:0] watchdog_state,
    input  logic [31:0] status,
    input  logic [31:0] halt_pc,
    input  logic [31:0] fault_info,
    input  logic [63:0] cycles,
    input  logic [63:0] iterations,
    input  logic [63:0] instret,
    // trace ring (rtl/nnfab_trace_ring.sv): the entry at araddr[10:3]
    input  logic [63:0] trace_entry,
    input  logic [31:0] trace_count,
    input  logic [31:0] trace_dropped,
    input  logic [319:0] class_cycles
);
  localparam int IRQ_BITS = 2;

  logic aw_got, w_got;
  logic [11:0] aw_q;
  logic [31:0] w_q;
  logic [3:0] strb_q;
  logic ap_done, ap_ready, gie;
  logic [IRQ_BITS-1:0] ier, isr;
  logic [31:0] preempt_reg;
  logic do_write, do_read;
  logic [31:0] wmask, rd_value;
  logic [7:0] woff, roff;
  logic reset_key;  // this write is the soft reset request

  assign awready = !aw_got && !bvalid;
  assign wready = !w_got && !bvalid;
  assign do_write = aw_got && w_got && !bvalid;
  assign bresp = 2'b00;
  assign arready = !rvalid;
  assign do_read = arvalid && arready;
  assign rresp = 2'b00;
  assign preempt = preempt_reg[NNFAB_PREEMPT_REQUEST_BIT];
  assign interrupt = gie && (isr != '0);
  assign wmask = {{8{strb_q[3]}}, {8{strb_q[2]}}, {8{strb_q[1]}}, {8{strb_q[0]}}};
  // Registers below 0x100, the trace ring's window from TRACE_RING_OFFSET
  // (0x800); anything else reads 0 and ignores writes.
  logic w_regs, r_regs, r_ring;
  assign woff = {aw_q[7:2], 2'b00};
  assign roff = {araddr[7:2], 2'b00};
  assign w_regs = aw_q[11:8] == 4'd0;
  assign r_regs = araddr[11:8] == 4'd0;
  assign r_ring = araddr[11];
  assign reset_key = w_regs && woff == NNFAB_REG_PREEMPT && strb_q == 4'hF && w_q == NNFAB_SOFT_RESET_KEY;

  // Registers are words: the low address bits select nothing.
  logic unused_ok;
  assign unused_ok = &{1'b0, araddr[1:0], aw_q[1:0], araddr[10:8], class_off[7:6], class_off[1:0]};

  // Arguments honour WSTRB; the handshake bits use byte 0.
  function automatic [31:0] merge(input [31:0] old, input [31:0] value, input [31:0] mask);
    merge = (old & ~mask) | (value & mask);
  endfunction

  always_ff @(posedge `NNFAB_CTRL_CLK) begin
    if (rst) begin
      aw_got <= 1'b0;
      w_got <= 1'b0;
      bvalid <= 1'b0;
    end else begin
      if (awvalid && awready) begin
        aw_got <= 1'b1;
        aw_q <= awaddr;
      end
      if (wvalid && wready) begin
        w_got <= 1'b1;
        w_q <= wdata;
        strb_q <= wstrb;
      end
      if (do_write) begin
        aw_got <= 1'b0;
        w_got <= 1'b0;
        bvalid <= 1'b1;
      end
      if (bvalid && bready) bvalid <= 1'b0;
    end
  end

  always_ff @(posedge `NNFAB_CTRL_CLK) begin
    if (rst) begin
      ap_start <= 1'b0;
      ap_done <= 1'b0;
      ap_ready <= 1'b0;
      soft_reset <= 1'b0;
      gie <= 1'b0;
      ier <= '0;
      isr <= '0;
      prog_addr <= '0;
      data_addr <= '0;
      ctx_addr <= '0;
      prog_size <= '0;
      data_size <= '0;
      mode <= '0;
      insn_limit <= '0;
      loop_budget <= '0;
      exec_budget <= '0;
      trace_addr <= '0;
      preempt_reg <= '0;
      srcb_addr <= '0;
      dst_addr <= '0;
      // No window B or D until the host sets one: ISA version 2's region.
      srcb_start <= 32'hFFFF_FFFF;
      dst_start <= 32'hFFFF_FFFF;
    end else begin
      if (start_accepted) ap_start <= 1'b0;
      if (do_read && r_regs && roff == NNFAB_REG_AP_CTRL) begin
        ap_done <= 1'b0;
        ap_ready <= 1'b0;
      end
      if (do_write && w_regs && strb_q[0]) begin
        case (woff)
          NNFAB_REG_AP_CTRL: if (w_q[NNFAB_BIT_AP_START] && core_idle && !soft_reset) ap_start <= 1'b1;
          NNFAB_REG_GIE: gie <= w_q[0];
          NNFAB_REG_IER: ier <= w_q[IRQ_BITS-1:0];
          NNFAB_REG_ISR: isr <= isr ^ w_q[IRQ_BITS-1:0];
          default: ;
        endcase
      end
      if (do_write && w_regs) begin
        case (woff)
          NNFAB_REG_PROG_ADDR: prog_addr[31:0] <= merge(prog_addr[31:0], w_q, wmask);
          NNFAB_REG_PROG_ADDR + 8'd4: prog_addr[63:32] <= merge(prog_addr[63:32], w_q, wmask);
          NNFAB_REG_DATA_ADDR: data_addr[31:0] <= merge(data_addr[31:0], w_q, wmask);
          NNFAB_REG_DATA_ADDR + 8'd4: data_addr[63:32] <= merge(data_addr[63:32], w_q, wmask);
          NNFAB_REG_CTX_ADDR: ctx_addr[31:0] <= merge(ctx_addr[31:0], w_q, wmask);
          NNFAB_REG_CTX_ADDR + 8'd4: ctx_addr[63:32] <= merge(ctx_addr[63:32], w_q, wmask);
          NNFAB_REG_PROG_SIZE: prog_size <= merge(prog_size, w_q, wmask);
          NNFAB_REG_DATA_SIZE: data_size <= merge(data_size, w_q, wmask);
          NNFAB_REG_MODE: mode <= merge(mode, w_q, wmask);
          NNFAB_REG_INSN_LIMIT: insn_limit <= merge(insn_limit, w_q, wmask);
          NNFAB_REG_LOOP_BUDGET: loop_budget[31:0] <= merge(loop_budget[31:0], w_q, wmask);
          NNFAB_REG_LOOP_BUDGET + 8'd4: loop_budget[63:32] <= merge(loop_budget[63:32], w_q, wmask);
          NNFAB_REG_EXEC_BUDGET: exec_budget[31:0] <= merge(exec_budget[31:0], w_q, wmask);
          NNFAB_REG_EXEC_BUDGET + 8'd4: exec_budget[63:32] <= merge(exec_budget[63:32], w_q, wmask);
          NNFAB_REG_TRACE_ADDR: trace_addr[31:0] <= merge(trace_addr[31:0], w_q, wmask);
          NNFAB_REG_TRACE_ADDR + 8'd4: trace_addr[63:32] <= merge(trace_addr[63:32], w_q, wmask);
          NNFAB_REG_SRCB_ADDR: srcb_addr[31:0] <= merge(srcb_addr[31:0], w_q, wmask);
          NNFAB_REG_SRCB_ADDR + 8'd4: srcb_addr[63:32] <= merge(srcb_addr[63:32], w_q, wmask);
          NNFAB_REG_DST_ADDR: dst_addr[31:0] <= merge(dst_addr[31:0], w_q, wmask);
          NNFAB_REG_DST_ADDR + 8'd4: dst_addr[63:32] <= merge(dst_addr[63:32], w_q, wmask);
          NNFAB_REG_SRCB_START: srcb_start <= merge(srcb_start, w_q, wmask);
          NNFAB_REG_DST_START: dst_start <= merge(dst_start, w_q, wmask);
          NNFAB_REG_PREEMPT:
          if (reset_key) soft_reset <= 1'b1;
          else preempt_reg <= merge(preempt_reg, w_q, wmask);
          default: ;  // read-only registers ignore writes
        endcase
      end
      // The stop wins over a host write in the same cycle: the core has
      // stopped, so a late PREEMPT would only hit the next run.
      // A stop during a soft reset is not reported (no AP_DONE, no interrupt).
      if (core_done && !soft_reset) begin
        ap_done <= 1'b1;
        ap_ready <= 1'b1;
        isr <= isr | ier;
        preempt_reg <= '0;
      end
      // Last: the end of a soft reset wins over a stop in the same cycle.
      if (soft_reset_done) begin
        soft_reset <= 1'b0;
        ap_start <= 1'b0;
        ap_done <= 1'b0;
        ap_ready <= 1'b0;
        isr <= '0;
        preempt_reg <= '0;
      end
    end
  end

  // The read value is taken only with ARVALID (do_read). ARADDR is a
  // top-level input, so a Verilated model evaluates this block at every
  // evaluation: in simulation it is computed only with ARVALID and keeps
  // its last value otherwise (docs/sim.md "Speed"); the hardware is the
  // same block without the `if`.
`ifdef SYNTHESIS
  always_comb begin
`else
  /* verilator lint_off LATCH */
  always_comb if (arvalid) begin
`endif
    case (roff)
      NNFAB_REG_AP_CTRL: rd_value = {28'd0, ap_ready, core_idle && !soft_reset, ap_done, ap_start};
      NNFAB_REG_GIE: rd_value = {31'd0, gie};
      NNFAB_REG_IER: rd_value = {30'd0, ier};
      NNFAB_REG_ISR: rd_value = {30'd0, isr};
      NNFAB_REG_PROG_ADDR: rd_value = prog_addr[31:0];
      NNFAB_REG_PROG_ADDR + 8'd4: rd_value = prog_addr[63:32];
      NNFAB_REG_DATA_ADDR: rd_value = data_addr[31:0];
      NNFAB_REG_DATA_ADDR + 8'd4: rd_value = data_addr[63:32];
      NNFAB_REG_CTX_ADDR: rd_value = ctx_addr[31:0];
      NNFAB_REG_CTX_ADDR + 8'd4: rd_value = ctx_addr[63:32];
      NNFAB_REG_PROG_SIZE: rd_value = prog_size;
      NNFAB_REG_DATA_SIZE: rd_value = data_size;
      NNFAB_REG_MODE: rd_value = mode;
      NNFAB_REG_INSN_LIMIT: rd_value = insn_limit;
      NNFAB_REG_LOOP_BUDGET: rd_value = loop_budget[31:0];
      NNFAB_REG_LOOP_BUDGET + 8'd4: rd_value = loop_budget[63:32];
      NNFAB_REG_EXEC_BUDGET: rd_value = exec_budget[31:0];
      NNFAB_REG_EXEC_BUDGET + 8'd4: rd_value = exec_budget[63:32];
      NNFAB_REG_PREEMPT: rd_value = preempt_reg;
      NNFAB_REG_WATCHDOG_STATE: rd_value = watchdog_state;
      NNFAB_REG_STATUS: rd_value = status;
      NNFAB_REG_HALT_PC: rd_value = halt_pc;
      NNFAB_REG_FAULT_INFO: rd_value = fault_info;
      NNFAB_REG_FEATURES: rd_value = NNFAB_RTL_FEATURES;
      NNFAB_REG_CYCLES: rd_value = cycles[31:0];
      NNFAB_REG_CYCLES + 8'd4: rd_value = cycles[63:32];
      NNFAB_REG_ITERATIONS: rd_value = iterations[31:0];
      NNFAB_REG_ITERATIONS + 8'd4: rd_value = iterations[63:32];
      NNFAB_REG_INSTRET: rd_value = instret[31:0];
      NNFAB_REG_INSTRET + 8'd4: rd_value = instret[63:32];
      NNFAB_REG_ID: rd_value = NNFAB_CORE_ID;
      NNFAB_REG_ISA_VERSION: rd_value = NNFAB_ISA_VERSION;
      NNFAB_REG_TRACE_COUNT: rd_value = trace_count;
      NNFAB_REG_TRACE_DROPPED: rd_value = trace_dropped;
      NNFAB_REG_TRACE_ADDR: rd_value = trace_addr[31:0];
      NNFAB_REG_TRACE_ADDR + 8'd4: rd_value = trace_addr[63:32];
      NNFAB_REG_SRCB_ADDR: rd_value = srcb_addr[31:0];
      NNFAB_REG_SRCB_ADDR + 8'd4: rd_value = srcb_addr[63:32];
      NNFAB_REG_DST_ADDR: rd_value = dst_addr[31:0];
      NNFAB_REG_DST_ADDR + 8'd4: rd_value = dst_addr[63:32];
      NNFAB_REG_SRCB_START: rd_value = srcb_start;
      NNFAB_REG_DST_START: rd_value = dst_start;
      default: rd_value = class_word;
    endcase
    if (r_ring) rd_value = araddr[2] ? trace_entry[63:32] : trace_entry[31:0];
    else if (!r_regs) rd_value = 32'd0;
  end
`ifndef SYNTHESIS
  /* verilator lint_on LATCH */
`endif

  // CLASS_CYCLES_CTRL .. CLASS_CYCLES_TENSOR (0x88..0xAF): ten words in a row.
  logic [31:0] class_word;
  logic [7:0] class_off;
  assign class_off = roff - NNFAB_REG_CLASS_CYCLES_CTRL;
  always_comb begin
    if (roff >= NNFAB_REG_CLASS_CYCLES_CTRL && roff < NNFAB_REG_CLASS_CYCLES_CTRL + 8'd40)
      class_word = class_cycles[{class_off[5:2], 5'd0}+:32];
    else class_word = 32'd0;
  end

  always_ff @(posedge `NNFAB_CTRL_CLK) begin
    if (rst) begin
      rvalid <= 1'b0;
      rdata <= '0;
    end else begin
      if (do_read) begin
        rvalid <= 1'b1;
        rdata <= rd_value;
      end else if (rvalid && rready) begin
        rvalid <= 1'b0;
      end
    end
  end
`ifndef SYNTHESIS
  // ------------------------------------------------------ assertions
  // AXI4-Lite slave rules (docs/rtl.md "Assertions"): BVALID and RVALID are
  // held with a stable response until their READY; a response only follows a
  // request; AP_START is only accepted while it is set.
  logic a_b_wait, a_r_wait;
  logic [31:0] a_rdata;
  always_ff @(posedge `NNFAB_CTRL_CLK) begin
    if (rst) begin
      a_b_wait <= 1'b0;
      a_r_wait <= 1'b0;
    end else begin
      a_b_wait <= bvalid && !bready;
      a_r_wait <= rvalid && !rready;
      a_rdata <= rdata;
      if (a_b_wait) assert (bvalid) else $error("s_axi_control B: BVALID dropped before BREADY");
      if (a_r_wait)
        assert (rvalid && rdata == a_rdata) else $error("s_axi_control R: RVALID dropped or RDATA changed before RREADY");
      if (do_write) assert (aw_got && w_got) else $error("s_axi_control: write without both AW and W");
      if (start_accepted) assert (ap_start) else $error("control: start accepted while AP_START is clear");
      if (soft_reset_done) assert (soft_reset) else $error("control: soft reset done without a request");
    end
  end
`endif
`ifdef NNFAB_SIM_PULSE_CLOCK
  // ------------------------------------------------------ the gated clock
  // In a running program the slave has nothing to do between host
  // transactions: its registers change only with a request or response on
  // the AXI4-Lite channels, an accepted start, a stop or the end of a soft
  // reset. Its clock then stands still (nnfab_sim_clock_gate, docs/sim.md
  // "Gated clocks"), and with it soft_reset, which the data ports and the
  // loader read: their payload multiplexers are no longer evaluated at
  // every edge. It ticks through a soft reset, for the core's sr_release,
  // which it clocks too (nnfab_core.sv). Two edges past the last busy one
  // let the assertions' copies (a_b_wait, a_r_wait, a_rdata) catch up.
  logic c_clk;
  // The enable's terms on the slave's own registers (a write half collected,
  // a response held, a soft reset under way) as one signal, computed only
  // when c_clk ticks (public_flat_rd keeps Verilator from folding it back
  // into the enable, which reads the requests and the sequencer's start and
  // stop at every edge: the data ports' `held`).
  logic held  /*verilator public_flat_rd*/;
  assign held = aw_got || w_got || bvalid || rvalid || soft_reset;
  nnfab_sim_clock_gate #(
      .DRAIN(8'd2),
      .GROUP(2)
  ) u_gate (
      .clk (clk),
      .wake(1'b0),
      .busy(rst || awvalid || wvalid || arvalid || start_accepted || core_done || soft_reset_done || held),
      .gclk(c_clk)
  );
  // The proof: at every edge of clk that c_clk misses, no register of the
  // slave would change had it ticked, written from the always_ff blocks
  // term by term (not from the enable). The terms on the slave's own
  // registers (no write collected, no B or R response held, so the
  // assertions' flags low and their copy of RDATA equal to it) cannot
  // change while c_clk stands: they are checked at the first edge it
  // misses. The terms that read inputs (a request offered, a start, a stop,
  // the end of a soft reset, reset) at every one, as in the trace ring.
  always_ff @(posedge clk) begin
    if (!u_gate.en_q) begin
      assert (!rst && !(awvalid && awready) && !(wvalid && wready) && !do_read && !start_accepted && !core_done &&
              !soft_reset_done)
      else $error("%m: the gated clock stopped at a request, a start, a stop or a reset");
      if (u_gate.was_on)
        assert (!do_write && !bvalid && !rvalid && !a_b_wait && !a_r_wait && a_rdata == rdata)
        else $error("%m: the gated clock stopped while the control slave was not quiescent");
    end
  end
`endif
endmodule
`undef NNFAB_CTRL_CLK
