#include "qos/qos_test_util.h"

#include <cstdlib>
#include <stdexcept>

#include "support/model_builder.h"

namespace nnfab::qos {

using testing::SubgraphBuilder;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

TestHls::TestHls(backends::HlsBackendOptions backend, runtime::EngineOptions engine)
    : device_("qos-hls", "hls for QoS tests", isa::kNOMINAL_CLOCK_MHZ,
              [this, backend] {
                auto made = std::make_unique<backends::HlsBackend>(backend);
                created_.store(made.get());
                return made;
              },
              engine) {}

Model tensorLoop(uint32_t elements) {
  Model model;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  cond.input(I32, {elements});
  const uint32_t cn = cond.input(I32, {1});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OperationType::LESS, {ci, cn}, {co});
  model.referenced.push_back(cond.build());

  SubgraphBuilder body;
  const uint32_t bi = body.input(I32, {1});
  const uint32_t bt = body.input(I32, {elements});
  body.input(I32, {1});
  const uint32_t one = body.int32Tensor({1}, {1});
  const uint32_t none = body.scalar(0);
  const uint32_t bi2 = body.output(I32, {1});
  const uint32_t bt2 = body.output(I32, {elements});
  body.op(OperationType::ADD, {bi, one, none}, {bi2});
  body.op(OperationType::ADD, {bt, one, none}, {bt2});
  model.referenced.push_back(body.build());

  SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {0});
  const uint32_t n = main.input(I32, {1});
  const uint32_t t = main.input(I32, {elements});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t tOut = main.output(I32, {elements});
  main.op(OperationType::WHILE, {c, b, i0, t, n}, {iOut, tOut});
  model.main = main.build();
  return model;
}

Model addChain(uint32_t elements, uint32_t count) {
  SubgraphBuilder main;
  uint32_t x = main.input(I32, {elements});
  const uint32_t none = main.scalar(0);
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t next = k + 1 == count ? main.output(I32, {elements}) : main.temp(I32, {elements});
    main.op(OperationType::ADD, {x, x, none}, {next});
    x = next;
  }
  Model model;
  model.main = main.build();
  return model;
}

std::vector<TensorValue> counterInputs(int32_t n) { return {testing::int32s({1}, {n})}; }

std::vector<int32_t> expectedCounter(int32_t n) {
  uint32_t acc = 0;
  int32_t i = 0;
  for (; i < n; ++i) acc += static_cast<uint32_t>(i);
  return {i, static_cast<int32_t>(acc)};
}

std::shared_ptr<api::PreparedModel> prepareOrDie(api::Client& client, const Device& device, const Model& model,
                                                 Priority priority) {
  api::PrepareRequest request;
  request.priority = priority;
  auto prepared = client.prepare(device, model, request);
  if (!prepared.isOk()) {
    throw std::runtime_error("prepare on " + std::string(device.name()) + " failed: " +
                             prepared.status().message());
  }
  return std::move(prepared).value();
}

double millisSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

WakeLateness::WakeLateness()
    : sleeper_([this] {
        constexpr std::chrono::milliseconds kNap{1};
        while (!stop_.load()) {
          const auto before = std::chrono::steady_clock::now();
          std::this_thread::sleep_for(kNap);
          const int64_t late =
              std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - before - kNap)
                  .count();
          if (late > worstNs_.load()) worstNs_.store(late);
        }
      }) {}

WakeLateness::~WakeLateness() { stopWorstMs(); }

double WakeLateness::stopWorstMs() {
  stop_.store(true);
  if (sleeper_.joinable()) sleeper_.join();
  return static_cast<double>(worstNs_.load()) / 1e6;
}

}  // namespace nnfab::qos
