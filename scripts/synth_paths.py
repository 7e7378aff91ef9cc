#!/usr/bin/env python3
"""Ten worst register-to-register paths of a flattened Yosys netlist.

Reads the JSON netlist that scripts/synth_depth.sh writes after
`synth_xilinx -flatten` and counts, like Yosys' `ltp` on the same netlist,
combinational cells (LUT, CARRY8, MUXF7/8, ...) along each path. Path ends are
the sequential cells (flip-flops FD*, DSP48E2, block RAM RAMB*, LUTRAM RAM*,
SRL*) and the top-level ports. `ltp` prints only the single longest path; this
reports the worst path into each distinct end point (a register's D input,
a DSP/RAM input, an output port) so the ten worst ends can be named.

Usage: synth_paths.py NETLIST.json TOP [COUNT]
Prints "depth N" first, then one line per path: length, start -> end; then
"worst per unit", the worst path into each instance (u_seq, u_tensor.u_vec,
...), since the ten worst ends of a core are often one cone.
"""
import json
import re
import sys

SEQUENTIAL = re.compile(r"^(FD|DSP48E2|RAMB|RAM|SRL)")


def clean_cell(name):
    """u_imem.mem for $techmap38370\\u_imem.mem.0.12, u_tensor.u_vec.u_valu.g_int32[3].u_lane
    for a DSP of that lane's multiplier: the instance, not Yosys' cell names."""
    short = re.sub(r"\$(flatten|techmap\d*)", "", name).replace("\\", "")
    short = short.split("$", 1)[0].rstrip(".")
    return re.sub(r"(\.\d+)+$", "", short) or name


def unit_of(signal):
    """The instance path of a signal, generate indexes dropped:
    u_tensor.u_vec for u_tensor.u_vec.nf[0], ...g_int32.u_lane for every lane."""
    parts = re.sub(r"^\$\\", "", signal).split(".")
    unit = [re.sub(r"\[\d+\]$", "", p) for p in parts[:-1] if p.startswith(("u_", "g_"))]
    if parts and parts[-1].startswith(("u_", "g_")):  # a cell named by its instance
        unit.append(re.sub(r"\[\d+\]$", "", parts[-1]))
    return ".".join(unit) if unit else "(top)"


def main():
    path, top = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    with open(path) as f:
        module = json.load(f)["modules"][top]

    # A readable name per net bit: prefer user names over $-names.
    names = {}
    for name, info in module["netnames"].items():
        hidden = info.get("hide_name", 0)
        for i, bit in enumerate(info["bits"]):
            if isinstance(bit, str):
                continue
            label = name if len(info["bits"]) == 1 else f"{name}[{i + info.get('offset', 0)}]"
            old = names.get(bit)
            if old is None or (old[0] and not hidden) or (old[0] == hidden and len(label) < len(old[1])):
                names[bit] = (hidden, label)

    def net_name(bit):
        return names.get(bit, (1, f"net{bit}"))[1]

    driver = {}       # net bit -> combinational cell that drives it
    comb_inputs = {}  # combinational cell -> its input net bits
    ends = []         # (end label, input net bits) of sequential cells and outputs
    for cname, cell in module["cells"].items():
        dirs = cell.get("port_directions", {})
        ins, outs = [], []
        for port, bits in cell["connections"].items():
            d = dirs.get(port, "input")
            for bit in bits:
                if isinstance(bit, str):
                    continue
                (outs if d == "output" else ins).append(bit)
        if SEQUENTIAL.match(cell["type"]):
            if cell["type"].startswith("FD"):
                # A flip-flop is named by what it drives (the register's Q).
                q = [b for p, bits in cell["connections"].items()
                     if dirs.get(p) == "output" for b in bits if not isinstance(b, str)]
                label = f"{cell['type']} {net_name(q[0]) if q else cname}"
            else:
                # A DSP or memory by its instance (its inputs: address, operands).
                label = f"{cell['type']} {clean_cell(cname)}"
            ends.append((label, ins))
        else:
            comb_inputs[cname] = ins
            for bit in outs:
                driver[bit] = cname
    for pname, port in module["ports"].items():
        if port["direction"] == "output":
            for i, bit in enumerate(port["bits"]):
                if not isinstance(bit, str):
                    ends.append((f"port {pname}[{i}]", [bit]))

    # Longest path (in cells) ending at each combinational cell, iteratively
    # (the netlist is far too deep for recursion).
    depth, via = {}, {}
    for root in comb_inputs:
        if root in depth:
            continue
        stack = [(root, False)]
        while stack:
            cname, done = stack.pop()
            if cname in depth:
                continue
            preds = [driver[b] for b in comb_inputs[cname] if b in driver]
            if not done:
                stack.append((cname, True))
                stack.extend((p, False) for p in preds if p not in depth)
                continue
            best, best_bit = 0, None
            for b in comb_inputs[cname]:
                p = driver.get(b)
                d = depth.get(p, 0) if p else 0
                if p is not None and p not in depth:
                    d = 0  # combinational loop guard (none expected)
                if best_bit is None or d > best:
                    best, best_bit = d, b
            depth[cname] = best + 1
            via[cname] = best_bit

    def start_of(bit):
        """Follow the deepest predecessor back to a register or input port."""
        seen = set()
        while bit in driver and driver[bit] not in seen:
            cname = driver[bit]
            seen.add(cname)
            nxt = via.get(cname)
            if nxt is None:
                return f"(constant) via {cname}"
            bit = nxt
        return net_name(bit)

    results = []
    for label, ins in ends:
        best, best_bit = 0, None
        for b in ins:
            p = driver.get(b)
            if p is not None and depth[p] > best:
                best, best_bit = depth[p], b
        if best_bit is not None:
            results.append((best, label, best_bit))
    results.sort(key=lambda r: -r[0])
    print(f"depth {results[0][0] if results else 0}")
    shown, seen_ends = 0, set()
    for best, label, bit in results:
        # One line per signal, not per bit of a bus.
        key = re.sub(r"\[\d+\]$", "", label)
        if key in seen_ends:
            continue
        seen_ends.add(key)
        print(f"{best:5d}  {start_of(bit)}  ->  {label}")
        shown += 1
        if shown == count:
            break
    print("worst per unit")
    seen_units = set()
    for best, label, bit in results:
        unit = unit_of(label.split(" ", 1)[1])
        if unit in seen_units:
            continue
        seen_units.add(unit)
        print(f"{best:5d}  {unit}  {start_of(bit)}  ->  {label}")


if __name__ == "__main__":
    main()
