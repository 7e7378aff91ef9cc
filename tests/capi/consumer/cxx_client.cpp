// A C++ program against the installed client API (nnfab::runtime): parses
// a JSON model, prepares it for one client on a device and runs it.
#include <cstdio>
#include <cstring>

#include "api/client.h"
#include "api/prepared_model.h"
#include "model/json_io.h"
#include "runtime/device.h"

// out = a + b over float[2].
static const char* kModel = R"({"main": {
  "operands": [
    {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_INPUT"},
    {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_INPUT"},
    {"type": "INT32", "dimensions": [], "lifetime": "CONSTANT_COPY", "value": [0]},
    {"type": "TENSOR_FLOAT32", "dimensions": [2], "lifetime": "SUBGRAPH_OUTPUT"}],
  "operations": [{"type": "ADD", "inputs": [0, 1, 2], "outputs": [3]}],
  "inputIndexes": [0, 1], "outputIndexes": [3]}, "referenced": []})";

int main(int argc, char** argv) {
  const char* name = argc > 1 ? argv[1] : "cpu";
  const nnfab::Device* device = nnfab::findDevice(name);
  if (device == nullptr) {
    std::fprintf(stderr, "no device %s\n", name);
    return 2;
  }
  auto model = nnfab::parseModel(kModel);
  if (!model.isOk()) {
    std::fprintf(stderr, "%s\n", model.status().message().c_str());
    return 1;
  }
  auto inputs = nnfab::parseInputs(R"({"inputs": [{"data": [1, 2]}, {"data": [10, 20]}]})", *model);
  if (!inputs.isOk()) {
    std::fprintf(stderr, "%s\n", inputs.status().message().c_str());
    return 1;
  }
  auto client = nnfab::api::Client::create("consumer");
  auto prepared = client->prepare(*device, *model);
  if (!prepared.isOk()) {
    std::fprintf(stderr, "%s\n", prepared.status().message().c_str());
    return 1;
  }
  const nnfab::ExecutionResult result = prepared.value()->execute(*inputs);
  if (!result.status.isOk() || result.outputs.size() != 1 || result.outputs[0].data.size() != 8) {
    std::fprintf(stderr, "execution failed: %s\n", result.status.message().c_str());
    return 1;
  }
  float out[2];
  std::memcpy(out, result.outputs[0].data.data(), sizeof out);
  std::printf("%s: [1, 2] + [10, 20] = [%g, %g]\n", name, out[0], out[1]);
  return out[0] == 11.0f && out[1] == 22.0f ? 0 : 1;
}
