// Copies the program into nnfab_imem over m_axi_prog: INCR bursts of up to
// 64 beats that never cross a 4 KiB boundary, issued back to back (as many
// outstanding as the memory accepts), one beat written per cycle. The first
// AR goes out in the first cycle after `start`; `done` pulses with the last
// beat, so a load costs mem_latency + beats cycles as in the cycle model.
// A beat with an error response is still consumed (AXI bursts cannot be
// abandoned); `error` and its address are valid with `done`.
// quiesce (a soft reset, docs/rtl.md "Soft reset"): no new AR goes out (one
// whose ARVALID was up stays until ARREADY), beats keep being taken; quiet
// once every requested beat has arrived. The core resets the loader after.
`include "nnfab_isa.svh"

module nnfab_prog_loader (
    input  logic         clk,
    input  logic         rst,
    input  logic         start,
    input  logic [63:0]  prog_addr,    // 64-byte aligned
    input  logic [10:0]  beats,        // ceil(PROG_SIZE / 64), 1..1024
    output logic         done,
    output logic         error,
    output logic [31:0]  error_addr,
    // m_axi_prog
    output logic         arvalid,
    input  logic         arready,
    output logic [63:0]  araddr,
    output logic [7:0]   arlen,
    input  logic         rvalid,
    output logic         rready,
    input  logic [511:0] rdata,
    input  logic [1:0]   rresp,
    // program memory write port
    output logic         imem_we,
    output logic [9:0]   imem_waddr,
    output logic [511:0] imem_wdata,
    input  logic         quiesce,
    output logic         quiet
);
  logic [57:0] ar_beat;      // next beat to request
  logic [10:0] ar_left;      // beats not yet requested
  logic [10:0] r_count;      // beats received
  logic [10:0] total;
  logic [6:0] to_boundary;   // beats up to the next 4 KiB boundary
  logic [10:0] burst;
  logic busy, r_fire, err_q, beat_error;
  logic [31:0] err_addr_q, beat_addr;
  logic ar_pend_q;

  // The next beat after a burst of n (<= to_boundary) beats: the burst ends
  // inside its 4 KiB page or exactly at the next one, so the page number
  // only ever increments, in two halves (a 52-bit carry chain would be 13
  // CARRY4 cells; docs/rtl.md "Timing").
  function automatic [57:0] after_burst(input [57:0] beat, input [6:0] n);
    logic [6:0] lo;
    logic [51:0] page;
    lo = {1'b0, beat[5:0]} + n;
    page = beat[57:6];
    if (lo[6]) page = {page[51:26] + {25'd0, page[25:0] == 26'h3FF_FFFF}, page[25:0] + 26'd1};
    after_burst = {page, lo[5:0]};
  endfunction

  assign to_boundary = 7'd64 - {1'b0, ar_beat[5:0]};
  assign burst = (ar_left < {4'd0, to_boundary}) ? ar_left : {4'd0, to_boundary};
  assign arvalid = busy && ar_left != '0 && (!quiesce || ar_pend_q);
  // Requested beats (total - ar_left) all received.
  assign quiet = !busy || (!arvalid && r_count + ar_left == total);
  assign araddr = {ar_beat, 6'd0};
  assign arlen = burst[7:0] - 8'd1;
  assign rready = busy;
  assign r_fire = rvalid && rready;
  assign done = r_fire && r_count + 11'd1 == total;
  assign imem_we = r_fire;
  assign imem_waddr = r_count[9:0];
  assign imem_wdata = rdata;
  assign beat_error = r_fire && rresp != 2'b00;
  assign beat_addr = prog_addr[31:0] + {15'd0, r_count, 6'd0};
  assign error = err_q || beat_error;
  assign error_addr = err_q ? err_addr_q : beat_addr;

  always_ff @(posedge clk) begin
    if (rst) ar_pend_q <= 1'b0;
    else ar_pend_q <= arvalid && !arready;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      ar_left <= '0;
      r_count <= '0;
      err_q <= 1'b0;
      err_addr_q <= '0;
    end else if (start) begin
      busy <= 1'b1;
      ar_beat <= prog_addr[63:6];
      ar_left <= beats;
      total <= beats;
      r_count <= '0;
      err_q <= 1'b0;
    end else if (busy) begin
      if (arvalid && arready) begin
        ar_beat <= after_burst(ar_beat, burst[6:0]);
        ar_left <= ar_left - burst;
      end
      if (r_fire) begin
        r_count <= r_count + 11'd1;
        if (beat_error && !err_q) begin
          err_q <= 1'b1;
          err_addr_q <= beat_addr;
        end
      end
      if (done) busy <= 1'b0;
    end
  end
endmodule
