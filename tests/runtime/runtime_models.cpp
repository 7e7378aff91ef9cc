#include "runtime/runtime_models.h"

#include "support/model_builder.h"

namespace nnfab::testing {
namespace {

constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

// cond(i, f, n) = i < n (or i >= 0 when `forever`).
Subgraph counterCond(OperandType counter, OperandType value, Dimensions valueDims, bool forever) {
  SubgraphBuilder c;
  const uint32_t i = c.input(counter, {1});
  c.input(value, valueDims);
  const uint32_t n = c.input(counter, {1});
  const uint32_t out = c.output(B8, {1});
  if (forever) {
    const uint32_t zero = c.int32Tensor({1}, {0});
    c.op(OperationType::GREATER_EQUAL, {i, zero}, {out});
  } else {
    c.op(OperationType::LESS, {i, n}, {out});
  }
  return c.build();
}

Model loopWithFloatBody(bool forever, uint32_t fSize = 2) {
  Model model;
  model.referenced.push_back(counterCond(I32, F32, {fSize}, forever));
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  const uint32_t f = body.input(F32, {fSize});
  body.input(I32, {1});
  const uint32_t step = body.int32Tensor({1}, {forever ? 0 : 1});
  const uint32_t two = body.floatTensor({1}, {2.0f});
  const uint32_t none = body.scalar(0);
  const uint32_t iNext = body.output(I32, {1});
  const uint32_t fNext = body.output(F32, {fSize});
  body.op(OperationType::ADD, {i, step, none}, {iNext});
  body.op(OperationType::MUL, {f, two, none}, {fNext});
  model.referenced.push_back(body.build());

  SubgraphBuilder main;
  const uint32_t cond = main.subgraphRef(0);
  const uint32_t bodyRef = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {forever ? 1 : 0});
  const uint32_t n = main.input(I32, {1});
  const uint32_t f0 = main.input(F32, {fSize});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t fOut = main.output(F32, {fSize});
  main.op(OperationType::WHILE, {cond, bodyRef, i0, f0, n}, {iOut, fOut});
  model.main = main.build();
  return model;
}

}  // namespace

Model mixedModel() {
  SubgraphBuilder main;
  const uint32_t a = main.input(I32, {3});
  const uint32_t f = main.input(F32, {3});
  const uint32_t none = main.scalar(0);
  const uint32_t t = main.temp(I32, {3});
  const uint32_t u = main.temp(I32, {3});
  const uint32_t v = main.output(I32, {3});
  const uint32_t g = main.output(F32, {3});
  main.op(OperationType::ADD, {a, a, none}, {t});
  main.op(OperationType::MUL, {t, a, none}, {u});
  main.op(OperationType::ADD, {f, f, none}, {g});
  main.op(OperationType::SUB, {u, t, none}, {v});
  Model model;
  model.main = main.build();
  return model;
}

Model mixedLoop() { return loopWithFloatBody(false); }

Model scalarMixedLoop() { return loopWithFloatBody(false, 1); }

Model infiniteMixedLoop() { return loopWithFloatBody(true); }

Model intIf(bool unknownOutput) {
  Model model;
  for (OperationType type : {OperationType::ADD, OperationType::SUB}) {
    SubgraphBuilder branch;
    const uint32_t x = branch.input(I32, {2});
    const uint32_t one = branch.int32Tensor({1}, {1});
    const uint32_t none = branch.scalar(0);
    const uint32_t out = branch.output(I32, {2});
    branch.op(type, {x, one, none}, {out});
    model.referenced.push_back(branch.build());
  }
  SubgraphBuilder main;
  const uint32_t c = main.input(B8, {1});
  const uint32_t x = main.input(I32, {2});
  const uint32_t thenRef = main.subgraphRef(0);
  const uint32_t elseRef = main.subgraphRef(1);
  const uint32_t out = main.output(I32, unknownOutput ? Dimensions{0} : Dimensions{2});
  main.op(OperationType::IF, {c, thenRef, elseRef, x}, {out});
  model.main = main.build();
  return model;
}

Model floatLoop() {
  Model model;
  {
    SubgraphBuilder c;
    const uint32_t i = c.input(F32, {1});
    c.input(F32, {1});
    const uint32_t n = c.input(F32, {1});
    const uint32_t out = c.output(B8, {1});
    c.op(OperationType::LESS, {i, n}, {out});
    model.referenced.push_back(c.build());
  }
  SubgraphBuilder body;
  const uint32_t i = body.input(F32, {1});
  const uint32_t f = body.input(F32, {1});
  body.input(F32, {1});
  const uint32_t one = body.floatTensor({1}, {1.0f});
  const uint32_t none = body.scalar(0);
  const uint32_t iNext = body.output(F32, {1});
  const uint32_t fNext = body.output(F32, {1});
  body.op(OperationType::ADD, {i, one, none}, {iNext});
  body.op(OperationType::ADD, {f, f, none}, {fNext});
  model.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t cond = main.subgraphRef(0);
  const uint32_t bodyRef = main.subgraphRef(1);
  const uint32_t i0 = main.floatTensor({1}, {0.0f});
  const uint32_t n = main.input(F32, {1});
  const uint32_t f0 = main.input(F32, {1});
  const uint32_t iOut = main.output(F32, {1});
  const uint32_t fOut = main.output(F32, {1});
  main.op(OperationType::WHILE, {cond, bodyRef, i0, f0, n}, {iOut, fOut});
  model.main = main.build();
  return model;
}

Model deepMixedChain(uint32_t depth) {
  // Level k (k = 0 outermost) has cond referenced[2k] and body
  // referenced[2k + 1]; every loop carries (i, x, f) with input-only n = 1.
  Model model;
  for (uint32_t k = 0; k < depth; ++k) {
    SubgraphBuilder c;
    const uint32_t i = c.input(I32, {1});
    c.input(I32, {1});
    c.input(F32, {1});
    const uint32_t n = c.input(I32, {1});
    const uint32_t out = c.output(B8, {1});
    c.op(OperationType::LESS, {i, n}, {out});
    model.referenced.push_back(c.build());

    SubgraphBuilder b;
    const uint32_t bi = b.input(I32, {1});
    const uint32_t bx = b.input(I32, {1});
    const uint32_t bf = b.input(F32, {1});
    b.input(I32, {1});
    const uint32_t one = b.int32Tensor({1}, {1});
    const uint32_t none = b.scalar(0);
    const uint32_t iNext = b.output(I32, {1});
    const uint32_t xNext = b.output(I32, {1});
    const uint32_t fNext = b.output(F32, {1});
    b.op(OperationType::ADD, {bi, one, none}, {iNext});
    if (k + 1 == depth) {
      b.op(OperationType::ADD, {bx, one, none}, {xNext});
      b.op(OperationType::ADD, {bf, bf, none}, {fNext});
    } else {
      const uint32_t cref = b.subgraphRef(2 * (k + 1));
      const uint32_t bref = b.subgraphRef(2 * (k + 1) + 1);
      const uint32_t zero = b.int32Tensor({1}, {0});
      const uint32_t limit = b.int32Tensor({1}, {1});
      const uint32_t innerI = b.temp(I32, {1});
      b.op(OperationType::WHILE, {cref, bref, zero, bx, bf, limit}, {innerI, xNext, fNext});
    }
    model.referenced.push_back(b.build());
  }
  SubgraphBuilder main;
  const uint32_t cref = main.subgraphRef(0);
  const uint32_t bref = main.subgraphRef(1);
  const uint32_t x = main.input(I32, {1});
  const uint32_t f = main.input(F32, {1});
  const uint32_t zero = main.int32Tensor({1}, {0});
  const uint32_t limit = main.int32Tensor({1}, {1});
  const uint32_t i = main.temp(I32, {1});
  const uint32_t xOut = main.output(I32, {1});
  const uint32_t fOut = main.output(F32, {1});
  main.op(OperationType::WHILE, {cref, bref, zero, x, f, limit}, {i, xOut, fOut});
  model.main = main.build();
  return model;
}

Model longChain(uint32_t count) {
  SubgraphBuilder main;
  const uint32_t x = main.input(I32, {1});
  const uint32_t one = main.int32Tensor({1}, {1});
  const uint32_t none = main.scalar(0);
  uint32_t last = x;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t next = k + 1 == count ? main.output(I32, {1}) : main.temp(I32, {1});
    main.op(OperationType::ADD, {last, one, none}, {next});
    last = next;
  }
  Model model;
  model.main = main.build();
  return model;
}

}  // namespace nnfab::testing
