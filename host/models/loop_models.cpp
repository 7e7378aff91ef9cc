#include "models/loop_models.h"

#include "models/model_builder.h"

namespace nnfab::models {
namespace {

constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

// cond(i, ..., limit) = i < limit, over `carried` + 1 inputs where the limit is last.
Subgraph lessThanLast(size_t carried) {
  SubgraphBuilder c;
  std::vector<uint32_t> in;
  for (size_t k = 0; k <= carried; ++k) in.push_back(c.input(I32, {1}));
  const uint32_t out = c.output(B8, {1});
  c.op(OperationType::LESS, {in[0], in.back()}, {out});
  return c.build();
}

}  // namespace

Model counterLoop(bool accumulate) {
  Model model;
  model.referenced.push_back(lessThanLast(accumulate ? 2 : 1));
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  const uint32_t acc = accumulate ? body.input(I32, {1}) : 0;
  body.input(I32, {1});  // n, input-only
  const uint32_t one = body.int32Tensor({1}, {1});
  const uint32_t none = body.scalar(0);
  const uint32_t iNext = body.output(I32, {1});
  body.op(OperationType::ADD, {i, one, none}, {iNext});
  if (accumulate) {
    const uint32_t accNext = body.output(I32, {1});
    body.op(OperationType::ADD, {acc, i, none}, {accNext});
  }
  model.referenced.push_back(body.build());

  SubgraphBuilder main;
  const uint32_t cond = main.subgraphRef(0);
  const uint32_t bodyRef = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {0});
  const uint32_t acc0 = accumulate ? main.int32Tensor({1}, {0}) : 0;
  const uint32_t n = main.input(I32, {1});
  const uint32_t iOut = main.output(I32, {1});
  if (accumulate) {
    const uint32_t accOut = main.output(I32, {1});
    main.op(OperationType::WHILE, {cond, bodyRef, i0, acc0, n}, {iOut, accOut});
  } else {
    main.op(OperationType::WHILE, {cond, bodyRef, i0, n}, {iOut});
  }
  model.main = main.build();
  return model;
}

Model infiniteLoop() {
  Model model;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  const uint32_t zero = cond.int32Tensor({1}, {0});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OperationType::GREATER_EQUAL, {ci, zero}, {co});
  model.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t bi = body.input(I32, {1});
  const uint32_t zeroStep = body.int32Tensor({1}, {0});
  const uint32_t bo = body.output(I32, {1});
  body.op(OperationType::ADD, {bi, zeroStep, body.scalar(0)}, {bo});
  model.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t i0 = main.input(I32, {1});
  const uint32_t out = main.output(I32, {1});
  main.op(OperationType::WHILE, {c, b, i0}, {out});
  model.main = main.build();
  return model;
}

Model nestedLoops() {
  Model model;
  model.referenced.push_back(lessThanLast(2));  // 0: outer cond (i, acc, n)
  model.referenced.push_back({});                // 1: outer body, below
  model.referenced.push_back(lessThanLast(2));  // 2: inner cond (j, acc, limit)
  SubgraphBuilder inner;                         // 3: inner body (j, acc, limit)
  {
    const uint32_t j = inner.input(I32, {1});
    const uint32_t acc = inner.input(I32, {1});
    inner.input(I32, {1});
    const uint32_t one = inner.int32Tensor({1}, {1});
    const uint32_t jNext = inner.output(I32, {1});
    const uint32_t accNext = inner.output(I32, {1});
    inner.op(OperationType::ADD, {j, one, inner.scalar(0)}, {jNext});
    inner.op(OperationType::ADD, {acc, one, inner.scalar(0)}, {accNext});
  }
  model.referenced.push_back(inner.build());
  SubgraphBuilder outer;
  {
    const uint32_t i = outer.input(I32, {1});
    const uint32_t acc = outer.input(I32, {1});
    outer.input(I32, {1});
    const uint32_t c = outer.subgraphRef(2), b = outer.subgraphRef(3);
    const uint32_t j0 = outer.int32Tensor({1}, {0});
    const uint32_t one = outer.int32Tensor({1}, {1});
    const uint32_t iNext = outer.output(I32, {1});
    const uint32_t accNext = outer.output(I32, {1});
    const uint32_t jFinal = outer.temp(I32, {1});
    outer.op(OperationType::WHILE, {c, b, j0, acc, i}, {jFinal, accNext});
    outer.op(OperationType::ADD, {i, one, outer.scalar(0)}, {iNext});
  }
  model.referenced[1] = outer.build();
  SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {0});
  const uint32_t acc0 = main.int32Tensor({1}, {0});
  const uint32_t n = main.input(I32, {1});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t accOut = main.output(I32, {1});
  main.op(OperationType::WHILE, {c, b, i0, acc0, n}, {iOut, accOut});
  model.main = main.build();
  return model;
}

Model deepIfChain(uint32_t depth) {
  Model model;
  // Level k calls referenced[k + 1]; the last level adds 1.
  for (uint32_t k = 0; k < depth; ++k) {
    SubgraphBuilder level;
    const uint32_t x = level.input(I32, {1});
    const uint32_t y = level.output(I32, {1});
    if (k + 1 < depth) {
      const uint32_t yes = level.constant(B8, {1}, std::vector<uint8_t>{1});
      const uint32_t next = level.subgraphRef(k + 1);
      level.op(OperationType::IF, {yes, next, next, x}, {y});
    } else {
      level.op(OperationType::ADD, {x, level.int32Tensor({1}, {1}), level.scalar(0)}, {y});
    }
    model.referenced.push_back(level.build());
  }
  SubgraphBuilder main;
  const uint32_t x = main.input(I32, {1});
  const uint32_t y = main.output(I32, {1});
  const uint32_t yes = main.constant(B8, {1}, std::vector<uint8_t>{1});
  const uint32_t first = main.subgraphRef(0);
  main.op(OperationType::IF, {yes, first, first, x}, {y});
  model.main = main.build();
  return model;
}

Model deepWhileChain(uint32_t depth) {
  Model model;
  // Level k: referenced[2k] = cond (i, x): i < 1; referenced[2k+1] = body (i, x):
  // i + 1, and x through level k + 1's loop (or x + 1 at the last level).
  for (uint32_t k = 0; k < depth; ++k) {
    SubgraphBuilder cond;
    const uint32_t ci = cond.input(I32, {1});
    cond.input(I32, {1});
    const uint32_t co = cond.output(B8, {1});
    cond.op(OperationType::LESS, {ci, cond.int32Tensor({1}, {1})}, {co});
    model.referenced.push_back(cond.build());

    SubgraphBuilder body;
    const uint32_t i = body.input(I32, {1});
    const uint32_t x = body.input(I32, {1});
    const uint32_t iNext = body.output(I32, {1});
    const uint32_t xNext = body.output(I32, {1});
    const uint32_t one = body.int32Tensor({1}, {1});
    body.op(OperationType::ADD, {i, one, body.scalar(0)}, {iNext});
    if (k + 1 < depth) {
      const uint32_t c = body.subgraphRef(2 * (k + 1)), b = body.subgraphRef(2 * (k + 1) + 1);
      const uint32_t zero = body.int32Tensor({1}, {0});
      const uint32_t innerI = body.temp(I32, {1});
      body.op(OperationType::WHILE, {c, b, zero, x}, {innerI, xNext});
    } else {
      body.op(OperationType::ADD, {x, one, body.scalar(0)}, {xNext});
    }
    model.referenced.push_back(body.build());
  }
  SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t zero = main.int32Tensor({1}, {0});
  const uint32_t x = main.input(I32, {1});
  const uint32_t iOut = main.temp(I32, {1});
  const uint32_t xOut = main.output(I32, {1});
  main.op(OperationType::WHILE, {c, b, zero, x}, {iOut, xOut});
  model.main = main.build();
  return model;
}

}  // namespace nnfab::models
