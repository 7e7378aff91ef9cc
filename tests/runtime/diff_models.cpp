#include "runtime/diff_models.h"

#include "support/model_builder.h"

namespace nnfab::testing {

Model countdownAccumulate() {
  constexpr OperandType I32 = OperandType::TENSOR_INT32;
  constexpr OperandType B8 = OperandType::TENSOR_BOOL8;
  Model model;
  {
    SubgraphBuilder cond;
    const uint32_t k = cond.input(I32, {1});
    cond.input(I32, {4});
    cond.input(I32, {4});
    const uint32_t zero = cond.int32Tensor({1}, {0});
    const uint32_t out = cond.output(B8, {1});
    cond.op(OperationType::GREATER, {k, zero}, {out});
    model.referenced.push_back(cond.build());
  }
  {
    SubgraphBuilder body;
    const uint32_t k = body.input(I32, {1});
    const uint32_t acc = body.input(I32, {4});
    const uint32_t x = body.input(I32, {4});
    const uint32_t one = body.int32Tensor({1}, {1});
    const uint32_t none = body.scalar(0);
    const uint32_t kNext = body.output(I32, {1});
    const uint32_t accNext = body.output(I32, {4});
    body.op(OperationType::SUB, {k, one, none}, {kNext});
    body.op(OperationType::ADD, {acc, x, none}, {accNext});
    model.referenced.push_back(body.build());
  }
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  const uint32_t acc0 = main.input(I32, {4});
  const uint32_t x = main.input(I32, {4});
  const uint32_t condRef = main.subgraphRef(0);
  const uint32_t bodyRef = main.subgraphRef(1);
  const uint32_t k = main.output(I32, {1});
  const uint32_t acc = main.output(I32, {4});
  main.op(OperationType::WHILE, {condRef, bodyRef, n, acc0, x}, {k, acc});
  model.main = main.build();
  return model;
}

}  // namespace nnfab::testing
