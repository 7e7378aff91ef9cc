"""One ONNX backend test's values as JSON, for onnx_testdata.js.

    python3 testdata_tensors.py TEST_DIR

TEST_DIR is a node test of libonnx-testdata (model.onnx, test_data_set_0/
input_K.pb, output_K.pb). Prints {"inputs": [...], "outputs": [...]} in the
graph's order (inputs that are initializers left out, as ONNX's test runner
does). Each value is {"name", "kind"}, where kind is the graph's value type
("tensor", "sequence", "optional", "map", ...); a tensor also has "type"
(numpy's name: float32, int64, bool, ...), "dims" and "data" (flat, row-major).
Non-finite floats are the strings "NaN", "Infinity", "-Infinity", as in
nnfab's JSON files. Only tensors are decoded: the other kinds are what the
drivers report as not runnable.

The .pb files are read with Debian's python3-onnx (TensorProto and
numpy_helper), not by hand.
"""
import json
import math
import os
import sys

import onnx
from onnx import numpy_helper

KIND_OF_TYPE_FIELD = {
    "tensor_type": "tensor",
    "sequence_type": "sequence",
    "optional_type": "optional",
    "map_type": "map",
    "sparse_tensor_type": "sparse tensor",
}


def plain(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return value


def read_value(info, path):
    kind = KIND_OF_TYPE_FIELD.get(info.type.WhichOneof("value"), "unknown")
    value = {"name": info.name, "kind": kind}
    if kind != "tensor":
        return value
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    array = numpy_helper.to_array(tensor)
    value["type"] = str(array.dtype)
    value["dims"] = list(array.shape)
    value["data"] = [plain(x) for x in array.reshape(-1).tolist()]
    return value


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: testdata_tensors.py TEST_DIR")
    test_dir = sys.argv[1]
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    initializers = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    data_set = os.path.join(test_dir, "test_data_set_0")
    result = {
        "inputs": [read_value(v, os.path.join(data_set, f"input_{k}.pb")) for k, v in enumerate(inputs)],
        "outputs": [read_value(v, os.path.join(data_set, f"output_{k}.pb")) for k, v in enumerate(model.graph.output)],
    }
    json.dump(result, sys.stdout, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
