// nnfab core (docs/rtl.md): the ISA of docs/isa.md as a Vitis RTL kernel.
// Port list fixed by the platform (AXI4-Lite control, m_axi_prog for the
// program, m_axi_data for data, descriptors and the context, m_axi_srcb and
// m_axi_dst for the vector engine's B operand and result: docs/rtl.md
// "Data ports"; all three data masters address the one data region).
`include "nnfab_isa.svh"

module nnfab_core (
    input  wire         ap_clk,
    input  wire         ap_rst_n,
    /* verilator lint_off SYMRSVDWORD */
    output wire         interrupt,
    /* verilator lint_on SYMRSVDWORD */
    input  wire         s_axi_control_awvalid,
    output wire         s_axi_control_awready,
    input  wire [11:0]  s_axi_control_awaddr,
    input  wire         s_axi_control_wvalid,
    output wire         s_axi_control_wready,
    input  wire [31:0]  s_axi_control_wdata,
    input  wire [3:0]   s_axi_control_wstrb,
    output wire         s_axi_control_bvalid,
    input  wire         s_axi_control_bready,
    output wire [1:0]   s_axi_control_bresp,
    input  wire         s_axi_control_arvalid,
    output wire         s_axi_control_arready,
    input  wire [11:0]  s_axi_control_araddr,
    output wire         s_axi_control_rvalid,
    input  wire         s_axi_control_rready,
    output wire [31:0]  s_axi_control_rdata,
    output wire [1:0]   s_axi_control_rresp,
    output wire         m_axi_prog_arvalid,
    input  wire         m_axi_prog_arready,
    output wire [63:0]  m_axi_prog_araddr,
    output wire [7:0]   m_axi_prog_arlen,
    output wire [2:0]   m_axi_prog_arsize,
    output wire [1:0]   m_axi_prog_arburst,
    input  wire         m_axi_prog_rvalid,
    output wire         m_axi_prog_rready,
    input  wire [511:0] m_axi_prog_rdata,
    input  wire [1:0]   m_axi_prog_rresp,
    input  wire         m_axi_prog_rlast,
    output wire         m_axi_data_awvalid,
    input  wire         m_axi_data_awready,
    output wire [63:0]  m_axi_data_awaddr,
    output wire [7:0]   m_axi_data_awlen,
    output wire [2:0]   m_axi_data_awsize,
    output wire [1:0]   m_axi_data_awburst,
    output wire         m_axi_data_wvalid,
    input  wire         m_axi_data_wready,
    output wire [511:0] m_axi_data_wdata,
    output wire [63:0]  m_axi_data_wstrb,
    output wire         m_axi_data_wlast,
    input  wire         m_axi_data_bvalid,
    output wire         m_axi_data_bready,
    input  wire [1:0]   m_axi_data_bresp,
    output wire         m_axi_data_arvalid,
    input  wire         m_axi_data_arready,
    output wire [63:0]  m_axi_data_araddr,
    output wire [7:0]   m_axi_data_arlen,
    output wire [2:0]   m_axi_data_arsize,
    output wire [1:0]   m_axi_data_arburst,
    input  wire         m_axi_data_rvalid,
    output wire         m_axi_data_rready,
    input  wire [511:0] m_axi_data_rdata,
    input  wire [1:0]   m_axi_data_rresp,
    input  wire         m_axi_data_rlast,
    output wire         m_axi_srcb_arvalid,
    input  wire         m_axi_srcb_arready,
    output wire [63:0]  m_axi_srcb_araddr,
    output wire [7:0]   m_axi_srcb_arlen,
    output wire [2:0]   m_axi_srcb_arsize,
    output wire [1:0]   m_axi_srcb_arburst,
    input  wire         m_axi_srcb_rvalid,
    output wire         m_axi_srcb_rready,
    input  wire [511:0] m_axi_srcb_rdata,
    input  wire [1:0]   m_axi_srcb_rresp,
    input  wire         m_axi_srcb_rlast,
    output wire         m_axi_dst_awvalid,
    input  wire         m_axi_dst_awready,
    output wire [63:0]  m_axi_dst_awaddr,
    output wire [7:0]   m_axi_dst_awlen,
    output wire [2:0]   m_axi_dst_awsize,
    output wire [1:0]   m_axi_dst_awburst,
    output wire         m_axi_dst_wvalid,
    input  wire         m_axi_dst_wready,
    output wire [511:0] m_axi_dst_wdata,
    output wire [63:0]  m_axi_dst_wstrb,
    output wire         m_axi_dst_wlast,
    input  wire         m_axi_dst_bvalid,
    output wire         m_axi_dst_bready,
    input  wire [1:0]   m_axi_dst_bresp
);
  localparam logic [2:0] BEAT_SIZE = 3'd6;  // log2(MEM_BEAT_BYTES)
  localparam logic [1:0] BURST_INCR = 2'b01;

  logic rst;
  assign rst = !ap_rst_n;

  // Soft reset (docs/rtl.md "Soft reset"): while soft_reset is up the data
  // port and the loader start nothing new and finish alone what AXI holds
  // them to (the data port sends the beats its accepted write bursts still
  // owe, with no byte enabled). The sequencer and the tensor unit run on
  // meanwhile, ignored: nothing they ask for goes out. Once everything is
  // answered, sr_release resets every unit but the register file for one
  // cycle and ends the request.
  logic soft_reset, sr_release, unit_rst, port_quiet, loader_quiet;
  logic d_quiet, b_quiet, w_quiet;
  assign unit_rst = rst || sr_release;

  // Simulation observability (the Verilator harness reads it; no port).
  logic sim_idle  /*verilator public_flat_rd*/;

  // ------------------------------------------------------ control slave
  logic ap_start, start_accepted, core_idle, core_done, preempt;
  logic [63:0] prog_addr, data_addr, ctx_addr, loop_budget, exec_budget, cycles, iterations, instret, trace_addr;
  logic [31:0] prog_size, data_size, mode, insn_limit, watchdog_state, status, halt_pc, fault_info;
  // the data region's windows B and D (docs/isa.md "Memory model")
  logic [63:0] srcb_addr, dst_addr;
  logic [31:0] srcb_start, dst_start;

  assign sim_idle = core_idle && !soft_reset;  // as AP_IDLE reads it

  nnfab_ctrl_slave u_ctrl (
      .clk(ap_clk),
      .rst(rst),
      .awvalid(s_axi_control_awvalid),
      .awready(s_axi_control_awready),
      .awaddr(s_axi_control_awaddr),
      .wvalid(s_axi_control_wvalid),
      .wready(s_axi_control_wready),
      .wdata(s_axi_control_wdata),
      .wstrb(s_axi_control_wstrb),
      .bvalid(s_axi_control_bvalid),
      .bready(s_axi_control_bready),
      .bresp(s_axi_control_bresp),
      .arvalid(s_axi_control_arvalid),
      .arready(s_axi_control_arready),
      .araddr(s_axi_control_araddr),
      .rvalid(s_axi_control_rvalid),
      .rready(s_axi_control_rready),
      .rdata(s_axi_control_rdata),
      .rresp(s_axi_control_rresp),
      .interrupt(interrupt),
      .ap_start(ap_start),
      .start_accepted(start_accepted),
      .core_idle(core_idle),
      .core_done(core_done),
      .soft_reset(soft_reset),
      .soft_reset_done(sr_release),
      .prog_addr(prog_addr),
      .data_addr(data_addr),
      .srcb_addr(srcb_addr),
      .dst_addr(dst_addr),
      .srcb_start(srcb_start),
      .dst_start(dst_start),
      .ctx_addr(ctx_addr),
      .prog_size(prog_size),
      .data_size(data_size),
      .mode(mode),
      .insn_limit(insn_limit),
      .loop_budget(loop_budget),
      .exec_budget(exec_budget),
      .trace_addr(trace_addr),
      .preempt(preempt),
      .watchdog_state(watchdog_state),
      .status(status),
      .halt_pc(halt_pc),
      .fault_info(fault_info),
      .cycles(cycles),
      .iterations(iterations),
      .instret(instret),
      .trace_entry(trace_entry),
      .trace_count(trace_count),
      .trace_dropped(trace_dropped),
      .class_cycles(class_cycles)
  );

  // ------------------------------------------------------ trace ring
  // docs/isa.md "Trace ring": filled from the sequencer's retire, read by the
  // control slave's window, or written to TRACE_ADDR while the sequencer
  // waits in S_FINISH (through the data port's write queue).
  logic tr_event, tr_taken, tr_backedge, tr_cycle, tr_finish, tr_hold, r_dumping, r_sq_push;
  logic tr_issue, tr_cancel, tr_revert;
  logic [63:0] r_sq_addr, r_sq_strb;
  logic [511:0] r_sq_data;
  logic [12:0] tr_pc;
  logic [2:0] tr_class;
  logic [63:0] trace_entry;
  logic [31:0] trace_count, trace_dropped;
  logic [319:0] class_cycles;
  nnfab_trace_ring u_trace (
      .clk(ap_clk),
      .rst(rst),
      .dump_rst(unit_rst),
      .start(start_accepted),
      .start_trace(mode[NNFAB_BIT_MODE_TRACE]),
      .trace_addr(trace_addr),
      .ev_valid(tr_event),
      .ev_pc(tr_pc),
      .ev_taken(tr_taken),
      .ev_backedge(tr_backedge),
      .ev_cycle(cycles[47:0]),
      .cyc_valid(tr_cycle),
      .cyc_class(tr_class),
      .cyc_issue(tr_issue),
      .cyc_cancel(tr_cancel),
      .cyc_revert(tr_revert),
      .rd_index(s_axi_control_araddr[10:3]),
      .rd_entry(trace_entry),
      .count(trace_count),
      .dropped(trace_dropped),
      .class_cycles(class_cycles),
      .finish(tr_finish),
      .hold(tr_hold),
      .dumping(r_dumping),
      .sq_push(r_sq_push),
      .sq_addr(r_sq_addr),
      .sq_data(r_sq_data),
      .sq_strb(r_sq_strb),
      .sq_full(sq_full),
      .writes_idle(writes_idle)
  );

  // ------------------------------------------------- program memory
  logic load_start, load_done, load_error, imem_we;
  logic [63:0] load_addr;
  logic [10:0] load_beats;
  logic [31:0] load_error_addr;
  logic [9:0] imem_waddr;
  logic [511:0] imem_wdata;
  logic fetch_en;
  logic [12:0] fetch_a, fetch_b;
  logic [63:0] insn_a, insn_b;

  // The loader counts beats; RLAST carries nothing it does not know.
  logic unused_ok;
  assign unused_ok = &{1'b0, m_axi_prog_rlast};

  nnfab_prog_loader u_loader (
      .clk(ap_clk),
      .rst(unit_rst),
      .start(load_start),
      .prog_addr(load_addr),
      .beats(load_beats),
      .done(load_done),
      .error(load_error),
      .error_addr(load_error_addr),
      .arvalid(m_axi_prog_arvalid),
      .arready(m_axi_prog_arready),
      .araddr(m_axi_prog_araddr),
      .arlen(m_axi_prog_arlen),
      .rvalid(m_axi_prog_rvalid),
      .rready(m_axi_prog_rready),
      .rdata(m_axi_prog_rdata),
      .rresp(m_axi_prog_rresp),
      .imem_we(imem_we),
      .imem_waddr(imem_waddr),
      .imem_wdata(imem_wdata),
      .quiesce(soft_reset),
      .quiet(loader_quiet)
  );
  assign m_axi_prog_arsize = BEAT_SIZE;
  assign m_axi_prog_arburst = BURST_INCR;

  nnfab_imem u_imem (
      .clk(ap_clk),
      .we(imem_we),
      .waddr(imem_waddr),
      .wdata(imem_wdata),
      .en(fetch_en),
      .pc_a(fetch_a),
      .pc_b(fetch_b),
      .insn_a(insn_a),
      .insn_b(insn_b)
  );

  // ------------------------------------------------------ data ports
  // m_axi_data: its clients (sequencer: loads, stores, context; tensor unit;
  // the trace ring's dump) take turns, so their requests are OR-combined
  // (the dump's beat selected by its own registered flag). m_axi_srcb and m_axi_dst
  // have one client each, the vector engine. The sequencer and the tensor
  // unit see the three as one: idle when all are, an error when any has one
  // (the first port's address in m_axi_data, m_axi_srcb, m_axi_dst order).
  logic s_rd_valid, t_rd_valid, rd_ready, r_valid, r_error, s_r_ready, t_r_ready;
  logic [63:0] s_rd_addr, t_rd_addr;
  logic [7:0] s_rd_len, t_rd_len;
  logic s_sq_push, t_sq_push, sq_full;
  logic [63:0] s_sq_addr, t_sq_addr, s_sq_strb, t_sq_strb;
  logic [511:0] s_sq_data, t_sq_data;
  logic bw_aw_valid, bw_aw_ready, bw_w_valid, bw_w_last, bw_w_ready;
  logic [63:0] bw_aw_addr, bw_w_strb;
  logic [7:0] bw_aw_len;
  logic [511:0] bw_w_data;
  logic writes_idle, reads_idle, drain, clear_error, bus_error;
  logic [31:0] bus_error_addr;
  logic d_writes_idle, d_reads_idle, d_bus_error;
  logic [31:0] d_bus_error_addr;
  logic b_rd_valid, b_rd_ready, b_r_valid, b_r_ready, b_reads_idle, b_writes_idle, b_bus_error;
  logic [63:0] b_rd_addr;
  logic [7:0] b_rd_len;
  logic [31:0] b_bus_error_addr;
  logic w_writes_idle, w_reads_idle, w_bus_error;
  logic [31:0] w_bus_error_addr;
  logic b_unused_r_error, b_unused_sq_full, b_unused_aw_ready, b_unused_w_ready;
  logic w_unused_rd_ready, w_unused_r_valid, w_unused_r_error, w_unused_sq_full;
  logic d_unused_aw_ready, d_unused_w_ready;

  // The write queue's data: taken by the port only with sq_push, which
  // only the selected source raises. In simulation the 512 bits are copied
  // only when a source pushes (the sources are computed from top-level
  // inputs, so this multiplexer was evaluated three times per cycle);
  // the hardware is the plain multiplexer (docs/sim.md "Speed").
`ifndef SYNTHESIS
  logic [511:0] p_sq_data;
  /* verilator lint_off LATCH */
  always_comb
    if (s_sq_push) p_sq_data = s_sq_data;
    else if (r_dumping) p_sq_data = r_sq_data;
    else if (t_sq_push) p_sq_data = t_sq_data;
  /* verilator lint_on LATCH */
`endif
  nnfab_data_port u_port (
      .clk(ap_clk),
      .rst(unit_rst),
      .awvalid(m_axi_data_awvalid),
      .awready(m_axi_data_awready),
      .awaddr(m_axi_data_awaddr),
      .awlen(m_axi_data_awlen),
      .wvalid(m_axi_data_wvalid),
      .wready(m_axi_data_wready),
      .wdata(m_axi_data_wdata),
      .wstrb(m_axi_data_wstrb),
      .wlast(m_axi_data_wlast),
      .bvalid(m_axi_data_bvalid),
      .bready(m_axi_data_bready),
      .bresp(m_axi_data_bresp),
      .arvalid(m_axi_data_arvalid),
      .arready(m_axi_data_arready),
      .araddr(m_axi_data_araddr),
      .arlen(m_axi_data_arlen),
      .rvalid(m_axi_data_rvalid),
      .rready(m_axi_data_rready),
      .rresp(m_axi_data_rresp),
      .rlast(m_axi_data_rlast),
      .rd_valid(s_rd_valid || t_rd_valid),
      .rd_addr(s_rd_valid ? s_rd_addr : t_rd_addr),
      .rd_len(s_rd_valid ? s_rd_len : t_rd_len),
      .rd_ready(rd_ready),
      .r_valid(r_valid),
      .r_error(r_error),
      .r_ready(s_r_ready || t_r_ready),
      .sq_push(s_sq_push || t_sq_push || r_sq_push),
      .sq_addr(s_sq_push ? s_sq_addr : r_dumping ? r_sq_addr : t_sq_addr),
`ifdef SYNTHESIS
      .sq_data(s_sq_push ? s_sq_data : r_dumping ? r_sq_data : t_sq_data),
`else
      .sq_data(p_sq_data),
`endif
      .sq_strb(s_sq_push ? s_sq_strb : r_dumping ? r_sq_strb : t_sq_strb),
      .sq_full(sq_full),
      .bw_aw_valid(1'b0),
      .bw_aw_addr(64'd0),
      .bw_aw_len(8'd0),
      .bw_aw_ready(d_unused_aw_ready),
      .bw_w_valid(1'b0),
      .bw_w_data(512'd0),
      .bw_w_strb(64'd0),
      .bw_w_last(1'b0),
      .bw_w_ready(d_unused_w_ready),
      .writes_idle(d_writes_idle),
      .reads_idle(d_reads_idle),
      .drain(drain),
      .clear_error(clear_error),
      .bus_error(d_bus_error),
      .bus_error_addr(d_bus_error_addr),
      .quiesce(soft_reset),
      .quiet(d_quiet)
  );
  assign m_axi_data_awsize = BEAT_SIZE;
  assign m_axi_data_awburst = BURST_INCR;
  assign m_axi_data_arsize = BEAT_SIZE;
  assign m_axi_data_arburst = BURST_INCR;

  // m_axi_srcb: reads only (its write channels are not ports of the core).
  logic b_awvalid, b_wvalid, b_wlast, b_bready;
  logic [63:0] b_awaddr, b_wstrb;
  logic [7:0] b_awlen;
  logic [511:0] b_wdata;
  nnfab_data_port u_port_b (
      .clk(ap_clk),
      .rst(unit_rst),
      .awvalid(b_awvalid),
      .awready(1'b0),
      .awaddr(b_awaddr),
      .awlen(b_awlen),
      .wvalid(b_wvalid),
      .wready(1'b0),
      .wdata(b_wdata),
      .wstrb(b_wstrb),
      .wlast(b_wlast),
      .bvalid(1'b0),
      .bready(b_bready),
      .bresp(2'b00),
      .arvalid(m_axi_srcb_arvalid),
      .arready(m_axi_srcb_arready),
      .araddr(m_axi_srcb_araddr),
      .arlen(m_axi_srcb_arlen),
      .rvalid(m_axi_srcb_rvalid),
      .rready(m_axi_srcb_rready),
      .rresp(m_axi_srcb_rresp),
      .rlast(m_axi_srcb_rlast),
      .rd_valid(b_rd_valid),
      .rd_addr(b_rd_addr),
      .rd_len(b_rd_len),
      .rd_ready(b_rd_ready),
      .r_valid(b_r_valid),
      .r_error(b_unused_r_error),
      .r_ready(b_r_ready),
      .sq_push(1'b0),
      .sq_addr(64'd0),
      .sq_data(512'd0),
      .sq_strb(64'd0),
      .sq_full(b_unused_sq_full),
      .bw_aw_valid(1'b0),
      .bw_aw_addr(64'd0),
      .bw_aw_len(8'd0),
      .bw_aw_ready(b_unused_aw_ready),
      .bw_w_valid(1'b0),
      .bw_w_data(512'd0),
      .bw_w_strb(64'd0),
      .bw_w_last(1'b0),
      .bw_w_ready(b_unused_w_ready),
      .writes_idle(b_writes_idle),
      .reads_idle(b_reads_idle),
      .drain(drain),
      .clear_error(clear_error),
      .bus_error(b_bus_error),
      .bus_error_addr(b_bus_error_addr),
      .quiesce(soft_reset),
      .quiet(b_quiet)
  );
  assign m_axi_srcb_arsize = BEAT_SIZE;
  assign m_axi_srcb_arburst = BURST_INCR;

  // m_axi_dst: burst writes only (its read channels are not ports).
  logic w_arvalid, w_rready;
  logic [63:0] w_araddr;
  logic [7:0] w_arlen;
  nnfab_data_port u_port_w (
      .clk(ap_clk),
      .rst(unit_rst),
      .awvalid(m_axi_dst_awvalid),
      .awready(m_axi_dst_awready),
      .awaddr(m_axi_dst_awaddr),
      .awlen(m_axi_dst_awlen),
      .wvalid(m_axi_dst_wvalid),
      .wready(m_axi_dst_wready),
      .wdata(m_axi_dst_wdata),
      .wstrb(m_axi_dst_wstrb),
      .wlast(m_axi_dst_wlast),
      .bvalid(m_axi_dst_bvalid),
      .bready(m_axi_dst_bready),
      .bresp(m_axi_dst_bresp),
      .arvalid(w_arvalid),
      .arready(1'b0),
      .araddr(w_araddr),
      .arlen(w_arlen),
      .rvalid(1'b0),
      .rready(w_rready),
      .rresp(2'b00),
      .rlast(1'b0),
      .rd_valid(1'b0),
      .rd_addr(64'd0),
      .rd_len(8'd0),
      .rd_ready(w_unused_rd_ready),
      .r_valid(w_unused_r_valid),
      .r_error(w_unused_r_error),
      .r_ready(1'b0),
      .sq_push(1'b0),
      .sq_addr(64'd0),
      .sq_data(512'd0),
      .sq_strb(64'd0),
      .sq_full(w_unused_sq_full),
      .bw_aw_valid(bw_aw_valid),
      .bw_aw_addr(bw_aw_addr),
      .bw_aw_len(bw_aw_len),
      .bw_aw_ready(bw_aw_ready),
      .bw_w_valid(bw_w_valid),
      .bw_w_data(bw_w_data),
      .bw_w_strb(bw_w_strb),
      .bw_w_last(bw_w_last),
      .bw_w_ready(bw_w_ready),
      .writes_idle(w_writes_idle),
      .reads_idle(w_reads_idle),
      .drain(drain),
      .clear_error(clear_error),
      .bus_error(w_bus_error),
      .bus_error_addr(w_bus_error_addr),
      .quiesce(soft_reset),
      .quiet(w_quiet)
  );
  assign m_axi_dst_awsize = BEAT_SIZE;
  assign m_axi_dst_awburst = BURST_INCR;

  // What is left unconnected on the read-only and write-only instances: the
  // tied-off requests keep them at their reset values.
  logic unused_ports;
  assign unused_ports = &{1'b0, b_unused_r_error, b_unused_sq_full, b_unused_aw_ready, b_unused_w_ready, b_awvalid,
                          b_wvalid, b_wlast, b_bready, b_awaddr, b_wstrb, b_awlen, b_wdata, b_writes_idle,
                          w_unused_rd_ready, w_unused_r_valid, w_unused_r_error, w_unused_sq_full, w_arvalid,
                          w_rready, w_araddr, w_arlen, w_reads_idle, d_unused_aw_ready, d_unused_w_ready};

  assign writes_idle = d_writes_idle && w_writes_idle;
  assign reads_idle = d_reads_idle && b_reads_idle;
  assign bus_error = d_bus_error || b_bus_error || w_bus_error;
  assign bus_error_addr = d_bus_error ? d_bus_error_addr : b_bus_error ? b_bus_error_addr : w_bus_error_addr;
  assign port_quiet = d_quiet && b_quiet && w_quiet;

  // ------------------------------------------------------ sequencer
  logic t_start, t_abort, t_busy, t_done, t_fault, t_illegal;
  logic [4:0] t_fn;
  logic [1:0] t_type;
  logic [4:0] t_rc;
  logic [31:0] t_dst, t_src_a, t_src_b, t_src_c, t_desc, t_data_size, t_fault_info;
  logic [63:0] t_data_addr, t_bias_b, t_bias_d;
  logic [31:0] t_srcb_start, t_dst_start, t_a_end, t_b_end;

  nnfab_seq u_seq (
      .clk(ap_clk),
      .rst(unit_rst),
      .ap_start(ap_start),
      .start_accepted(start_accepted),
      .core_idle(core_idle),
      .core_done(core_done),
      .arg_prog_addr(prog_addr),
      .arg_data_addr(data_addr),
      .arg_ctx_addr(ctx_addr),
      .arg_prog_size(prog_size),
      .arg_data_size(data_size),
      .arg_srcb_addr(srcb_addr),
      .arg_dst_addr(dst_addr),
      .arg_srcb_start(srcb_start),
      .arg_dst_start(dst_start),
      .arg_mode(mode),
      .arg_insn_limit(insn_limit),
      .arg_loop_budget(loop_budget),
      .arg_exec_budget(exec_budget),
      .preempt(preempt),
      .watchdog_state(watchdog_state),
      .status(status),
      .halt_pc(halt_pc),
      .fault_info(fault_info),
      .cycles(cycles),
      .iterations(iterations),
      .instret(instret),
      .load_start(load_start),
      .load_addr(load_addr),
      .load_beats(load_beats),
      .load_done(load_done),
      .load_error(load_error),
      .load_error_addr(load_error_addr),
      .fetch_en(fetch_en),
      .fetch_a(fetch_a),
      .fetch_b(fetch_b),
      .insn_a(insn_a),
      .insn_b(insn_b),
      .rd_valid(s_rd_valid),
      .rd_addr(s_rd_addr),
      .rd_len(s_rd_len),
      .rd_ready(rd_ready),
      .r_valid(r_valid),
      .r_error(r_error),
      .r_data(m_axi_data_rdata),
      .r_ready(s_r_ready),
      .sq_push(s_sq_push),
      .sq_addr(s_sq_addr),
      .sq_data(s_sq_data),
      .sq_strb(s_sq_strb),
      .sq_full(sq_full),
      .writes_idle(writes_idle),
      .reads_idle(reads_idle),
      .drain(drain),
      .clear_error(clear_error),
      .bus_error(bus_error),
      .bus_error_addr(bus_error_addr),
      .t_start(t_start),
      .t_fn(t_fn),
      .t_type(t_type),
      .t_rc(t_rc),
      .t_dst(t_dst),
      .t_src_a(t_src_a),
      .t_src_b(t_src_b),
      .t_src_c(t_src_c),
      .t_desc(t_desc),
      .t_data_addr(t_data_addr),
      .t_data_size(t_data_size),
      .t_srcb_start(t_srcb_start),
      .t_dst_start(t_dst_start),
      .t_a_end(t_a_end),
      .t_b_end(t_b_end),
      .t_bias_b(t_bias_b),
      .t_bias_d(t_bias_d),
      .t_abort(t_abort),
      .t_busy(t_busy),
      .t_done(t_done),
      .t_fault(t_fault),
      .t_illegal(t_illegal),
      .t_fault_info(t_fault_info),
      .tr_event(tr_event),
      .tr_taken(tr_taken),
      .tr_backedge(tr_backedge),
      .tr_pc(tr_pc),
      .tr_cycle(tr_cycle),
      .tr_class(tr_class),
      .tr_issue(tr_issue),
      .tr_cancel(tr_cancel),
      .tr_revert(tr_revert),
      .tr_finish(tr_finish),
      .tr_hold(tr_hold)
  );

  // ---------------------------------------------------- tensor unit
  nnfab_tensor u_tensor (
      .clk(ap_clk),
      .rst(unit_rst),
      .start(t_start),
      .fn(t_fn),
      .ty(t_type),
      .rc(t_rc),
      .dst(t_dst),
      .src_a(t_src_a),
      .src_b(t_src_b),
      .src_c(t_src_c),
      .desc(t_desc),
      .data_addr(t_data_addr),
      .data_size(t_data_size),
      .srcb_start(t_srcb_start),
      .dst_start(t_dst_start),
      .a_end(t_a_end),
      .b_end(t_b_end),
      .bias_b(t_bias_b),
      .bias_d(t_bias_d),
      .abort(t_abort),
      .writes_idle(writes_idle),
      .busy(t_busy),
      .done(t_done),
      .fault(t_fault),
      .illegal(t_illegal),
      .fault_info(t_fault_info),
      .rd_valid(t_rd_valid),
      .rd_addr(t_rd_addr),
      .rd_len(t_rd_len),
      .rd_ready(rd_ready),
      .r_valid(r_valid),
      .r_last(m_axi_data_rlast),
      .r_data(m_axi_data_rdata),
      .r_ready(t_r_ready),
      .b_rd_valid(b_rd_valid),
      .b_rd_addr(b_rd_addr),
      .b_rd_len(b_rd_len),
      .b_rd_ready(b_rd_ready),
      .b_r_valid(b_r_valid),
      .b_r_last(m_axi_srcb_rlast),
      .b_r_data(m_axi_srcb_rdata),
      .b_r_ready(b_r_ready),
      .sq_push(t_sq_push),
      .sq_addr(t_sq_addr),
      .sq_data(t_sq_data),
      .sq_strb(t_sq_strb),
      .sq_full(sq_full),
      .bw_aw_valid(bw_aw_valid),
      .bw_aw_addr(bw_aw_addr),
      .bw_aw_len(bw_aw_len),
      .bw_aw_ready(bw_aw_ready),
      .bw_w_valid(bw_w_valid),
      .bw_w_data(bw_w_data),
      .bw_w_strb(bw_w_strb),
      .bw_w_last(bw_w_last),
      .bw_w_ready(bw_w_ready)
  );
`ifdef NNFAB_SIM_PULSE_CLOCK
  // Shared gated clocks (docs/sim.md "Shared gated clocks"), in the
  // harness's model only: units that stand still in the same situations
  // tick together, since each gated clock costs the Verilated scheduler a
  // trigger that it evaluates several times per edge. The three data ports
  // and the tensor unit's control run together in a tensor instruction and
  // stand still together in scalar code (a scalar load or store ticks the
  // control for its few cycles); the control slave, the trace ring and the
  // sequencer's arguments tick around host transactions, the start and the
  // stop (and the ring with MODE.TRACE), and so does the sequencer's
  // divider in a scalar DIV (rare in a model's code).
  // Each member keeps its own enable (en_q) and its own proof; a group's
  // clock ticks when any member's enable is high (nnfab_sim_clock_gate's
  // GROUP).
  logic sim_ports_clk, sim_host_clk;
  assign sim_ports_clk = ap_clk & (u_port.u_gate.en_q || u_port_b.u_gate.en_q || u_port_w.u_gate.en_q ||
                                   u_tensor.u_tgate.en_q);
  assign sim_host_clk = ap_clk & (u_ctrl.u_gate.en_q || u_trace.u_gate.en_q || u_seq.u_arg_gate.en_q ||
                                  u_seq.u_div_gate.en_q);

  // In the harness's model (sim/nnfab_sim_top.sv) sr_release, which every
  // unit's reset reads, ticks with the control slave's gated clock, which
  // runs while a soft reset is under way (nnfab_ctrl_slave.sv, docs/sim.md
  // "Gated clocks"): on ap_clk, the logic behind unit_rst would be
  // evaluated at every edge. The proof checks each edge it misses: no
  // reset, and no soft reset under way with sr_release low, its next value
  // (soft_reset && ...) whatever the ports and the loader do. Those two are
  // registers on the same clock, so they are checked at the first edge it
  // misses (the control slave's gate's was_on), as the slave's own.
  always_ff @(posedge ap_clk)
    if (!u_ctrl.u_gate.en_q) begin
      assert (!rst) else $error("%m: the soft-reset release's clock stopped at a reset");
      if (u_ctrl.u_gate.was_on)
        assert (!soft_reset && !sr_release) else $error("%m: the soft-reset release's clock stopped while it could change");
    end
`define NNFAB_SR_CLK u_ctrl.c_clk
`else
`define NNFAB_SR_CLK ap_clk
`endif
  always_ff @(posedge `NNFAB_SR_CLK) begin
    if (rst) sr_release <= 1'b0;
    else sr_release <= soft_reset && !sr_release && port_quiet && loader_quiet;
  end
`undef NNFAB_SR_CLK

`ifndef SYNTHESIS
  // Functional coverage for the Verilator harness (sim/sim_coverage.h):
  // the opcode of each retired instruction and the status of each stop.
  logic sim_retired  /*verilator public_flat_rd*/;
  logic [7:0] sim_opcode  /*verilator public_flat_rd*/;
  logic [31:0] sim_status  /*verilator public_flat_rd*/;
  assign sim_retired = u_seq.retire;
  assign sim_opcode = u_seq.d_word[NNFAB_F_OPCODE_LSB+:8];
  assign sim_status = status;

  // The data-port clients take turns (docs/rtl.md "Assertions"): the
  // OR-combination above is only correct while this holds.
  always_ff @(posedge ap_clk) begin
    // Each written as an `if` on the rarer side, so that a Verilated model
    // evaluates the tensor unit's OR-combination only when it matters.
    if (!rst) begin
      if (s_rd_valid) assert (!t_rd_valid) else $error("data port: sequencer and tensor unit request reads at once");
      if (s_r_ready) assert (!t_r_ready) else $error("data port: sequencer and tensor unit take read beats at once");
      if (s_sq_push) assert (!t_sq_push) else $error("data port: sequencer and tensor unit push writes at once");
      if (r_dumping) assert (!s_sq_push && !t_sq_push) else $error("data port: the trace dump shares the write queue");
    end
  end
`endif
endmodule
