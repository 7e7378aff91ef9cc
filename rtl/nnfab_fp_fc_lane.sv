// One FULLY_CONNECTED lane (docs/rtl.md "Floating-point units"): a pipelined
// multiplier feeding a pipelined adder whose result comes back to its own
// input 8 cycles later, so that 8 independent dot products (slots) are in
// flight in the adder at once, round robin, each summed strictly in order,
// as the FLOAT32 contract requires:
//   acc = +0; for i: acc = acc + round(x[i] * w[i]); out = act(acc + bias)
// The bias is one more term with w = 1.0 (bias · 1 is exact), so the lane
// only knows terms. The operands presented in a cycle belong to slot `slot`,
// a free-running count mod 8 that the caller keeps (one counter for all the
// lanes of an engine, not one per lane); `first` starts the slot's sum at
// +0, `last` (with the activation code `act`: 0 NONE, 1 RELU, 2 RELU1,
// 3 RELU6) ends it.
// A cycle without a term (in_valid = 0: the weights are late) adds -0 to
// that slot's sum, which changes no sum (x + -0 = x in round to nearest,
// +0 + -0 = +0; NaN stays NaN), so the feeder may stall freely.
// A slot's result leaves 18 cycles after its last term (multiplier 8, adder
// 8, activation 2) with out_slot; a slot may start its next sum in its next
// turn. Every path is the units' own (one select in front of the adder).
module nnfab_fp_fc_lane (
    input  logic        clk,
    input  logic        rst,
    // High from before a wave's first term until its last result has left
    // (the FC engine's instruction): the adder computes only then, so that
    // an idle lane costs the Verilated model nothing (the FP units' clock
    // enables); every sum in flight is inside an active stretch.
    input  logic        active,
    // Within `active`: the wave's units on this lane are in slots 0 ..
    // slots - 1 (0: the lane has none). Only those slots' terms go through
    // the multiplier and the adder, and a lane without a unit leaves its
    // activation still too, so that the FP units' registers move only with
    // an operation whose result is written. A slot without a unit still
    // gives a result in a lane that has some (out_valid in the same cycles
    // in every used lane, which the engine counts on lane 0): its word, the
    // activation of the adder's last sum, is outside every write's strobe.
    // The tag pipelines move with `active` alone, the same in every lane,
    // so that synthesis keeps one copy of them for all the lanes.
    input  logic [3:0]  slots,
    input  logic [2:0]  slot,
    input  logic        in_valid,
    input  logic        first,
    input  logic        last,
    input  logic [1:0]  act,
    input  logic [31:0] x,
    input  logic [31:0] w,
    output logic        out_valid,
    output logic [2:0]  out_slot,
    output logic [31:0] y
);
  localparam int MUL_LATENCY = 8;
  localparam int ADD_LATENCY = 8;  // = the number of slots

  // ---- multiplier, with the term's tags {valid, first, last, act, slot}
  logic [31:0] prod;
  logic prod_valid;
  nnfab_fp_mul u_mul (
      .clk(clk), .rst(rst), .in_valid(in_valid && {1'b0, slot} < slots), .a(x), .b(w), .out_valid(prod_valid),
      .y(prod));
  logic [8*MUL_LATENCY-1:0] mtag;
  // The tag pipelines move only while active (the Verilated model skips
  // them when idle): every term and result is inside an active stretch, so
  // what they hold outside one has no valid, first or last bit set, and
  // slot and act are read only with those.
  always_ff @(posedge clk) begin
    if (rst) mtag <= '0;
    else if (active) mtag <= {mtag[8*(MUL_LATENCY-1)-1:0], in_valid, in_valid && first, in_valid && last, act, slot};
  end
  logic p_first, p_last;
  logic [1:0] p_act;
  logic [2:0] p_slot;
  assign {p_first, p_last, p_act, p_slot} = mtag[8*MUL_LATENCY-2:8*(MUL_LATENCY-1)];

  // ---- adder: the slot's running sum (its own result 8 cycles ago) + term.
  // p_slot is the slot entering the adder in every active cycle, with a
  // term or without (the tags move with `active`): a slot with a unit adds
  // in each of its turns, so its sum is the adder's output when its turn
  // comes back; a slot without one never adds.
  logic [31:0] sum;
  logic sum_valid;
  nnfab_fp_add u_add (
      .clk(clk), .rst(rst), .in_valid(active && {1'b0, p_slot} < slots), .sub(1'b0),
      .a(p_first ? 32'h00000000 : sum),
      .b(prod_valid ? prod : 32'h80000000),
      .out_valid(sum_valid), .y(sum));
  logic [6*ADD_LATENCY-1:0] atag;  // {last, act, slot}
  always_ff @(posedge clk) begin
    if (rst) atag <= '0;
    else if (active) atag <= {atag[6*(ADD_LATENCY-1)-1:0], p_last, p_act, p_slot};
  end
  logic s_last;
  logic [1:0] s_act;
  logic [2:0] s_slot;
  assign {s_last, s_act, s_slot} = atag[6*ADD_LATENCY-1:6*(ADD_LATENCY-1)];

  // ---- activation (NONE is MAX(sum, sum) = sum, bits unchanged)
  logic [2:0] slot_q1, slot_q2;
  nnfab_fp_cmp u_act (
      .clk(clk), .rst(rst), .in_valid(s_last && slots != 4'd0), .op(s_act == 2'd0 ? 4'd6 : {2'b10, s_act} - 4'd1),
      .a(sum), .b(sum), .out_valid(out_valid), .y(y));
  always_ff @(posedge clk) begin
    if (active) begin
      slot_q1 <= s_slot;
      slot_q2 <= slot_q1;
    end
  end
  assign out_slot = slot_q2;

  logic unused_ok;
  assign unused_ok = &{1'b0, sum_valid, mtag[8*MUL_LATENCY-1]};  // the slot's turn, not valid, times the adder
endmodule
