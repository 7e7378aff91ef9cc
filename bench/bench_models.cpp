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
