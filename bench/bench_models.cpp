#include "bench_models.h"

#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

using models::SubgraphBuilder;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

// x + 1 or x - 1 over one [1] input.
Subgraph stepBy(OperationType op) {
  SubgraphBuilder b;
  const uint32_t x = b.input(I32, {1});
  const uint32_t y = b.output(I32, {1});
  b.op(op, {x, b.int32Tensor({1}, {1}), b.scalar(0)}, {y});
  return b.build();
}

}  // namespace

Model ifInLoop(bool withIf, bool thenBranch) {
  Model model;
  // referenced: 0 cond, 1 body, 2 then, 3 else. Loop operands: i, acc (carried), n, c (input-only).
  SubgraphBuilder cond;
  {
    const uint32_t i = cond.input(I32, {1});
    cond.input(I32, {1});
    const uint32_t n = cond.input(I32, {1});
    cond.input(B8, {1});
    cond.op(OperationType::LESS, {i, n}, {cond.output(B8, {1})});
  }
  model.referenced.push_back(cond.build());
  model.referenced.push_back({});
  if (withIf) {
    model.referenced.push_back(stepBy(OperationType::ADD));
    model.referenced.push_back(stepBy(OperationType::SUB));
  }

  SubgraphBuilder body;
  {
    const uint32_t i = body.input(I32, {1});
    const uint32_t acc = body.input(I32, {1});
    body.input(I32, {1});
    const uint32_t c = body.input(B8, {1});
    const uint32_t one = body.int32Tensor({1}, {1});
    const uint32_t none = body.scalar(0);
    const uint32_t iNext = body.output(I32, {1});
    const uint32_t accNext = body.output(I32, {1});
    const uint32_t t = body.temp(I32, {1});
    if (withIf) {
      body.op(OperationType::IF, {c, body.subgraphRef(2), body.subgraphRef(3), i}, {t});
    } else {
      body.op(thenBranch ? OperationType::ADD : OperationType::SUB, {i, one, none}, {t});
    }
    body.op(OperationType::ADD, {acc, t, none}, {accNext});
    body.op(OperationType::ADD, {i, one, none}, {iNext});
  }
  model.referenced[1] = body.build();

  SubgraphBuilder main;
  const uint32_t condRef = main.subgraphRef(0), bodyRef = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {0});
  const uint32_t acc0 = main.int32Tensor({1}, {0});
  const uint32_t n = main.input(I32, {1});
  const uint32_t c = main.input(B8, {1});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t accOut = main.output(I32, {1});
  main.op(OperationType::WHILE, {condRef, bodyRef, i0, acc0, n, c}, {iOut, accOut});
  model.main = main.build();
  return model;
}

Model elementwiseAdd(uint32_t elements) {
  Model model;
  SubgraphBuilder main;
  const uint32_t a = main.input(I32, {elements});
  const uint32_t b = main.input(I32, {elements});
  const uint32_t c = main.output(I32, {elements});
  main.op(OperationType::ADD, {a, b, main.scalar(0)}, {c});
  model.main = main.build();
  return model;
}

Model tinyAdd() { return elementwiseAdd(1); }

}  // namespace nnfab::bench

namespace nnfab::bench {
namespace {

constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto B8v = OperandType::TENSOR_BOOL8;
constexpr auto I32v = OperandType::TENSOR_INT32;

// Small weights that keep the state bounded; values matter only for the
// correctness check against the CPU.
std::vector<float> weights(size_t n, uint32_t salt) {
  std::vector<float> w(n);
  for (size_t i = 0; i < n; ++i) w[i] = static_cast<float>(static_cast<int>((i * 7 + salt) % 9) - 4) / 32.0f;
  return w;
}

}  // namespace

Model fullyConnected(uint32_t batch, uint32_t units, uint32_t inputSize) {
  Model model;
  models::SubgraphBuilder main;
  const uint32_t x = main.input(F32, {batch, inputSize});
  const uint32_t w = main.floatTensor({units, inputSize}, weights(size_t{units} * inputSize, 1));
  const uint32_t b = main.floatTensor({units}, weights(units, 2));
  const uint32_t out = main.output(F32, {batch, units});
  main.op(OperationType::FULLY_CONNECTED, {x, w, b, main.scalar(0)}, {out});
  model.main = main.build();
  return model;
}

Model whileFib() {
  Model model;
  models::SubgraphBuilder cond;
  cond.input(F32, {1, 2});
  const uint32_t ci = cond.input(I32v, {1});
  const uint32_t cn = cond.input(I32v, {1});
  const uint32_t go = cond.output(B8v, {1});
  cond.op(OperationType::LESS, {ci, cn}, {go});
  model.referenced.push_back(cond.build());
  models::SubgraphBuilder body;
  const uint32_t fib = body.input(F32, {1, 2});
  const uint32_t i = body.input(I32v, {1});
  body.input(I32v, {1});
  const uint32_t fibNext = body.output(F32, {1, 2});
  const uint32_t iNext = body.output(I32v, {1});
  const uint32_t none = body.scalar(0);
  body.op(OperationType::ADD, {i, body.int32Tensor({1}, {1}), none}, {iNext});
  body.op(OperationType::FULLY_CONNECTED,
          {fib, body.floatTensor({2, 2}, {0, 1, 1, 1}), body.floatTensor({2}, {0, 0}), none}, {fibNext});
  model.referenced.push_back(body.build());
  models::SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), bd = main.subgraphRef(1);
  const uint32_t fib0 = main.floatTensor({1, 2}, {1, 1});
  const uint32_t i0 = main.int32Tensor({1}, {1});
  const uint32_t n = main.input(I32v, {1});
  const uint32_t out = main.output(F32, {1, 2});
  main.op(OperationType::WHILE, {c, bd, fib0, i0, n}, {out});
  model.main = main.build();
  return model;
}

Model rnnLoop(uint32_t hidden) {
  Model model;
  auto inputs = [&](models::SubgraphBuilder& s) {
    return std::vector<uint32_t>{s.input(F32, {1, hidden}), s.input(I32v, {1}), s.input(F32, {1, hidden}),
                                 s.input(I32v, {1})};
  };
  models::SubgraphBuilder cond;
  const auto ci = inputs(cond);
  const uint32_t go = cond.output(B8v, {1});
  cond.op(OperationType::LESS, {ci[1], ci[3]}, {go});
  model.referenced.push_back(cond.build());
  models::SubgraphBuilder body;
  const auto in = inputs(body);
  const uint32_t hNext = body.output(F32, {1, hidden});
  const uint32_t tNext = body.output(I32v, {1});
  const uint32_t none = body.scalar(0);
  const uint32_t hh = body.temp(F32, {1, hidden});
  const uint32_t xx = body.temp(F32, {1, hidden});
  const size_t n = size_t{hidden} * hidden;
  body.op(OperationType::FULLY_CONNECTED,
          {in[0], body.floatTensor({hidden, hidden}, weights(n, 3)), body.floatTensor({hidden}, weights(hidden, 4)), none},
          {hh});
  body.op(OperationType::FULLY_CONNECTED,
          {in[2], body.floatTensor({hidden, hidden}, weights(n, 5)), body.floatTensor({hidden}, weights(hidden, 6)), none},
          {xx});
  body.op(OperationType::ADD, {hh, xx, body.scalar(1)}, {hNext});  // fused RELU
  body.op(OperationType::ADD, {in[1], body.int32Tensor({1}, {1}), none}, {tNext});
  model.referenced.push_back(body.build());
  models::SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), bd = main.subgraphRef(1);
  const uint32_t h0 = main.floatTensor({1, hidden}, std::vector<float>(hidden, 0.0f));
  const uint32_t t0 = main.int32Tensor({1}, {0});
  const uint32_t x = main.input(F32, {1, hidden});
  const uint32_t steps = main.input(I32v, {1});
  const uint32_t hOut = main.output(F32, {1, hidden});
  const uint32_t tOut = main.output(I32v, {1});
  main.op(OperationType::WHILE, {c, bd, h0, t0, x, steps}, {hOut, tOut});
  model.main = main.build();
  return model;
}

}  // namespace nnfab::bench
