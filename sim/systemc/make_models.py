#!/usr/bin/python3
"""Writes the models of docs/platform-model.md's projection table, with inputs:
counter_loop.json (while i < n: i = i + 1; input n) and add_N.json (ADD of two
INT32 [N] tensors, inputs a[k] = k, b[k] = 3 - 2k).

Usage: make_models.py OUT_DIR [--n 1000 1000000] [--add 1048576]
"""
import argparse
import json
import os

I32 = "TENSOR_INT32"


def operand(kind, lifetime, dims=(1,), value=None):
    o = {"type": kind, "dimensions": list(dims), "lifetime": lifetime}
    if value is not None:
        o["value"] = value
    return o


def counter_loop():
    cond = {
        "operands": [operand(I32, "SUBGRAPH_INPUT"), operand(I32, "SUBGRAPH_INPUT"),
                     operand("TENSOR_BOOL8", "SUBGRAPH_OUTPUT")],
        "operations": [{"type": "LESS", "inputs": [0, 1], "outputs": [2]}],
        "inputIndexes": [0, 1], "outputIndexes": [2]}
    body = {
        "operands": [operand(I32, "SUBGRAPH_INPUT"), operand(I32, "SUBGRAPH_INPUT"),
                     operand(I32, "CONSTANT_COPY", value=[1]), operand("INT32", "CONSTANT_COPY", (), [0]),
                     operand(I32, "SUBGRAPH_OUTPUT")],
        "operations": [{"type": "ADD", "inputs": [0, 2, 3], "outputs": [4]}],
        "inputIndexes": [0, 1], "outputIndexes": [4]}
    main = {
        "operands": [operand("SUBGRAPH", "SUBGRAPH", (), 0), operand("SUBGRAPH", "SUBGRAPH", (), 1),
                     operand(I32, "CONSTANT_COPY", value=[0]), operand(I32, "SUBGRAPH_INPUT"),
                     operand(I32, "SUBGRAPH_OUTPUT")],
        "operations": [{"type": "WHILE", "inputs": [0, 1, 2, 3], "outputs": [4]}],
        "inputIndexes": [3], "outputIndexes": [4]}
    return {"main": main, "referenced": [cond, body]}


def add(n):
    main = {
        "operands": [operand(I32, "SUBGRAPH_INPUT", (n,)), operand(I32, "SUBGRAPH_INPUT", (n,)),
                     operand("INT32", "CONSTANT_COPY", (), [0]), operand(I32, "SUBGRAPH_OUTPUT", (n,))],
        "operations": [{"type": "ADD", "inputs": [0, 1, 2], "outputs": [3]}],
        "inputIndexes": [0, 1], "outputIndexes": [3]}
    return {"main": main}


def write(path, value):
    with open(path, "w") as f:
        json.dump(value, f, separators=(",", ":"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--n", type=int, nargs="*", default=[1000, 1000000])
    p.add_argument("--add", type=int, nargs="*", default=[1048576])
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "counter_loop.json"), counter_loop())
    for n in a.n:
        write(os.path.join(a.out, f"counter_loop_{n}.inputs.json"), {"inputs": [{"data": [n]}]})
    for n in a.add:
        write(os.path.join(a.out, f"add_{n}.json"), add(n))
        write(os.path.join(a.out, f"add_{n}.inputs.json"),
              {"inputs": [{"data": list(range(n))}, {"data": [3 - 2 * k for k in range(n)]}]})


if __name__ == "__main__":
    main()
