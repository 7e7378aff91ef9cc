#!/usr/bin/env python3
"""Writes the accumulator loop of examples/while_sum.json as an ONNX model.

    i = 0; acc = 0
    while i < n: acc = acc + i; i = i + 1
    outputs (i, acc)

The same computation as the nnfab model: INT32 tensors of shape [1], the
condition evaluated before every iteration, no trip count (ONNX `Loop` with
M omitted and a `cond` input, the form an exporter gives a while loop).
Needs Debian's python3-onnx (run with /usr/bin/python3).

Usage: make_loop_model.py OUTPUT.onnx
"""
import sys

import onnx
from onnx import TensorProto, helper

OPSET = 13  # Loop, Less and Add as every ONNX Runtime release since 1.6 runs them


def scalar_int32(name, value):
    return helper.make_tensor(name, TensorProto.INT32, [1], [value])


def body_graph():
    # Loop body inputs: iteration number, incoming condition, then the
    # loop-carried values; outputs: the next condition, then the carried values.
    inputs = [
        helper.make_tensor_value_info("iter", TensorProto.INT64, []),
        helper.make_tensor_value_info("cond_in", TensorProto.BOOL, [1]),
        helper.make_tensor_value_info("i_in", TensorProto.INT32, [1]),
        helper.make_tensor_value_info("acc_in", TensorProto.INT32, [1]),
    ]
    outputs = [
        helper.make_tensor_value_info("cond_out", TensorProto.BOOL, [1]),
        helper.make_tensor_value_info("i_out", TensorProto.INT32, [1]),
        helper.make_tensor_value_info("acc_out", TensorProto.INT32, [1]),
    ]
    nodes = [
        helper.make_node("Add", ["acc_in", "i_in"], ["acc_out"]),
        helper.make_node("Add", ["i_in", "one"], ["i_out"]),
        # n comes from the enclosing graph (an outer-scope value, loop-invariant).
        helper.make_node("Less", ["i_out", "n"], ["cond_out"]),
    ]
    return helper.make_graph(nodes, "body", inputs, outputs, initializer=[scalar_int32("one", 1)])


def main_graph():
    nodes = [
        helper.make_node("Less", ["zero", "n"], ["cond0"]),
        helper.make_node("Loop", ["", "cond0", "zero", "zero"], ["i", "acc"], body=body_graph()),
    ]
    return helper.make_graph(
        nodes,
        "accumulator_loop",
        [helper.make_tensor_value_info("n", TensorProto.INT32, [1])],
        [
            helper.make_tensor_value_info("i", TensorProto.INT32, [1]),
            helper.make_tensor_value_info("acc", TensorProto.INT32, [1]),
        ],
        initializer=[scalar_int32("zero", 0)],
    )


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    model = helper.make_model(
        main_graph(), producer_name="nnfab bench/peers", opset_imports=[helper.make_opsetid("", OPSET)]
    )
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, sys.argv[1])


if __name__ == "__main__":
    main()
