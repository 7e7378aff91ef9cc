// Hand-written differential cases for what random models reach only by
// chance: nnfab's INT32 edge definitions on the scalar (shape [1]) and the
// tensor path, nested loops carrying tensors, an IF inside a WHILE,
// zero-iteration loops and the loop timeout. Every device must give the
// hand-computed result (and therefore the same as cpu).
#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <string>

#include "differential/differential.h"
#include "runtime/device.h"
#include "api/run_model.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "validation/validate.h"

namespace nnfab {
namespace {

using namespace nnfab::testing;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

ExecutionResult expect(std::vector<TensorValue> outputs) {
  ExecutionResult r;
  r.outputs = std::move(outputs);
  return r;
}

// Runs on every device and compares with `expected`.
void checkAllDevices(const std::string& name, const Model& model,
                     const std::vector<TensorValue>& inputs, const ExecutionResult& expected,
                     uint64_t loopTimeoutMs = 10000) {
  ASSERT_TRUE(validateModel(model).isOk()) << name << ": " << validateModel(model).message();
  for (const Device* device : allDevices()) {
    RunOptions options;
    options.device = device;
    options.loopTimeoutMs = loopTimeoutMs;
    const ExecutionResult result = runModel(model, inputs, options);
    EXPECT_EQ(differential::compareResults(expected, result), "")
        << name << " on " << device->name() << ": got " << differential::describe(result);
  }
}

// out = x / y with the given shapes.
Model divModel(Dimensions x, Dimensions y, Dimensions out) {
  SubgraphBuilder g;
  const uint32_t a = g.input(I32, std::move(x));
  const uint32_t b = g.input(I32, std::move(y));
  const uint32_t z = g.output(I32, std::move(out));
  g.op(OperationType::DIV, {a, b, g.scalar(0)}, {z});
  Model m;
  m.main = g.build();
  return m;
}

TEST(Targeted, Int32MinDividedByMinusOneOnScalarsAndTensors) {
  checkAllDevices("scalar", divModel({1}, {1}, {1}), {int32s({1}, {kMin}), int32s({1}, {-1})},
                  expect({int32s({1}, {kMin})}));
  checkAllDevices("tensor", divModel({4}, {4}, {4}),
                  {int32s({4}, {kMin, kMax, kMin, 7}), int32s({4}, {-1, -1, 1, -1})},
                  expect({int32s({4}, {kMin, -kMax, kMin, -7})}));
  checkAllDevices("broadcast divisor", divModel({2, 2}, {1}, {2, 2}),
                  {int32s({2, 2}, {kMin, kMax, 0, -1}), int32s({1}, {-1})},
                  expect({int32s({2, 2}, {kMin, -kMax, 0, 1})}));
}

TEST(Targeted, DivisionByZeroIsZeroAndDivisionFloors) {
  checkAllDevices("scalar", divModel({1}, {1}, {1}), {int32s({1}, {kMin}), int32s({1}, {0})},
                  expect({int32s({1}, {0})}));
  checkAllDevices("tensor", divModel({6}, {6}, {6}),
                  {int32s({6}, {5, -5, kMax, 0, -7, 7}), int32s({6}, {0, 0, 0, 0, 2, -2})},
                  expect({int32s({6}, {0, 0, 0, 0, -4, -4})}));
  // A constant zero divisor broadcast over a [3,2] tensor.
  SubgraphBuilder g;
  const uint32_t x = g.input(I32, {3, 2});
  const uint32_t z = g.output(I32, {3, 2});
  g.op(OperationType::DIV, {x, g.int32Tensor({2}, {0, 3}), g.scalar(0)}, {z});
  Model m;
  m.main = g.build();
  checkAllDevices("constant divisor", m, {int32s({3, 2}, {1, 7, -1, -7, kMin, kMax})},
                  expect({int32s({3, 2}, {0, 2, 0, -3, 0, 715827882})}));
}

// Outer loop i < n over (i, t); inner loop j < i over (j, t) adding
// [1,2,3] to the [2,3] tensor t: t = t0 + n(n-1)/2 * [1,2,3].
Model nestedTensorLoops() {
  Model model;
  auto lessCond = [](Dimensions carried) {
    SubgraphBuilder c;
    const uint32_t i = c.input(I32, {1});
    c.input(I32, std::move(carried));
    const uint32_t n = c.input(I32, {1});
    const uint32_t out = c.output(B8, {1});
    c.op(OperationType::LESS, {i, n}, {out});
    return c.build();
  };
  model.referenced.push_back(lessCond({2, 3}));  // 0 outer cond (i, t, n)
  model.referenced.push_back({});                 // 1 outer body
  model.referenced.push_back(lessCond({2, 3}));  // 2 inner cond (j, t, i)
  {
    SubgraphBuilder inner;  // 3 inner body (j, t, i)
    const uint32_t j = inner.input(I32, {1});
    const uint32_t t = inner.input(I32, {2, 3});
    inner.input(I32, {1});
    const uint32_t jNext = inner.output(I32, {1});
    const uint32_t tNext = inner.output(I32, {2, 3});
    inner.op(OperationType::ADD, {j, inner.int32Tensor({1}, {1}), inner.scalar(0)}, {jNext});
    inner.op(OperationType::ADD, {t, inner.int32Tensor({3}, {1, 2, 3}), inner.scalar(0)}, {tNext});
    model.referenced.push_back(inner.build());
  }
  {
    SubgraphBuilder outer;  // (i, t, n)
    const uint32_t i = outer.input(I32, {1});
    const uint32_t t = outer.input(I32, {2, 3});
    outer.input(I32, {1});
    const uint32_t iNext = outer.output(I32, {1});
    const uint32_t tNext = outer.output(I32, {2, 3});
    const uint32_t jFinal = outer.temp(I32, {1});
    outer.op(OperationType::WHILE,
             {outer.subgraphRef(2), outer.subgraphRef(3), outer.int32Tensor({1}, {0}), t, i},
             {jFinal, tNext});
    outer.op(OperationType::ADD, {i, outer.int32Tensor({1}, {1}), outer.scalar(0)}, {iNext});
    model.referenced[1] = outer.build();
  }
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  const uint32_t t0 = main.input(I32, {2, 3});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t tOut = main.output(I32, {2, 3});
  main.op(OperationType::WHILE,
          {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0}), t0, n}, {iOut, tOut});
  model.main = main.build();
  return model;
}

TEST(Targeted, NestedWhileWithLoopCarriedTensor) {
  const std::vector<int32_t> t0 = {0, 10, 20, kMax, -5, kMin};
  for (int32_t n : {1, 4, 7}) {
    const int32_t k = n * (n - 1) / 2;
    std::vector<int32_t> t = t0;
    for (size_t e = 0; e < t.size(); ++e) {
      t[e] = static_cast<int32_t>(static_cast<uint32_t>(t[e]) + static_cast<uint32_t>(k * static_cast<int32_t>(e % 3 + 1)));
    }
    checkAllDevices("n = " + std::to_string(n), nestedTensorLoops(),
                    {int32s({1}, {n}), int32s({2, 3}, t0)},
                    expect({int32s({1}, {n}), int32s({2, 3}, t)}));
  }
}

TEST(Targeted, ZeroIterationLoopsReturnTheInitialValues) {
  checkAllDevices("nested, n = 0", nestedTensorLoops(), {int32s({1}, {0}), int32s({2, 3}, {1, 2, 3, 4, 5, 6})},
                  expect({int32s({1}, {0}), int32s({2, 3}, {1, 2, 3, 4, 5, 6})}));
  checkAllDevices("nested, n = INT32_MIN", nestedTensorLoops(),
                  {int32s({1}, {kMin}), int32s({2, 3}, {kMin, 0, 0, 0, 0, kMax})},
                  expect({int32s({1}, {0}), int32s({2, 3}, {kMin, 0, 0, 0, 0, kMax})}));
  checkAllDevices("counter, n = -3", counterLoop(true), {int32s({1}, {-3})},
                  expect({int32s({1}, {0}), int32s({1}, {0})}));
}

// while (i < n) { acc = (i < 3) ? acc + i : acc * 2; i = i + 1 } over a [2] acc.
Model ifInsideWhile() {
  Model model;
  {
    SubgraphBuilder cond;  // 0 (i, acc, n)
    const uint32_t i = cond.input(I32, {1});
    cond.input(I32, {2});
    const uint32_t n = cond.input(I32, {1});
    const uint32_t out = cond.output(B8, {1});
    cond.op(OperationType::LESS, {i, n}, {out});
    model.referenced.push_back(cond.build());
  }
  model.referenced.push_back({});  // 1 body
  {
    SubgraphBuilder then;  // 2 (acc, i) -> acc + i
    const uint32_t acc = then.input(I32, {2});
    const uint32_t i = then.input(I32, {1});
    const uint32_t out = then.output(I32, {2});
    then.op(OperationType::ADD, {acc, i, then.scalar(0)}, {out});
    model.referenced.push_back(then.build());
  }
  {
    SubgraphBuilder otherwise;  // 3 (acc, i) -> acc * 2
    const uint32_t acc = otherwise.input(I32, {2});
    otherwise.input(I32, {1});
    const uint32_t out = otherwise.output(I32, {2});
    otherwise.op(OperationType::MUL, {acc, otherwise.int32Tensor({2}, {2, 2}), otherwise.scalar(0)}, {out});
    model.referenced.push_back(otherwise.build());
  }
  {
    SubgraphBuilder body;  // (i, acc, n)
    const uint32_t i = body.input(I32, {1});
    const uint32_t acc = body.input(I32, {2});
    body.input(I32, {1});
    const uint32_t iNext = body.output(I32, {1});
    const uint32_t accNext = body.output(I32, {2});
    const uint32_t small = body.temp(B8, {1});
    body.op(OperationType::LESS, {i, body.int32Tensor({1}, {3})}, {small});
    body.op(OperationType::IF, {small, body.subgraphRef(2), body.subgraphRef(3), acc, i}, {accNext});
    body.op(OperationType::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
    model.referenced[1] = body.build();
  }
  SubgraphBuilder main;
  const uint32_t n = main.input(I32, {1});
  const uint32_t acc0 = main.input(I32, {2});
  const uint32_t iOut = main.temp(I32, {1});
  const uint32_t accOut = main.output(I32, {2});
  main.op(OperationType::WHILE,
          {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0}), acc0, n}, {iOut, accOut});
  model.main = main.build();
  return model;
}

TEST(Targeted, IfInsideWhile) {
  for (int32_t n : {0, 2, 3, 6, 40}) {
    std::vector<int32_t> acc = {1, -1};
    for (int32_t i = 0; i < n; ++i) {
      for (int32_t& a : acc) {
        a = i < 3 ? a + i : static_cast<int32_t>(static_cast<uint32_t>(a) * 2u);  // wraps
      }
    }
    checkAllDevices("n = " + std::to_string(n), ifInsideWhile(), {int32s({1}, {n}), int32s({2}, {1, -1})},
                    expect({int32s({2}, acc)}));
  }
}

// 600,000 iterations: on the hls device the program (two instructions
// per iteration) runs in slices of 2^20 instructions, its context saved and
// resumed in between. The maximum loop timeout leaves room for sanitizer builds.
TEST(Targeted, LongCounterLoopGivesTheSameCountEverywhere) {
  const int32_t n = 600000;
  const int64_t sum = int64_t{n} * (n - 1) / 2;  // wraps in int32
  checkAllDevices("counter with sum", counterLoop(true), {int32s({1}, {n})},
                  expect({int32s({1}, {n}), int32s({1}, {static_cast<int32_t>(static_cast<uint32_t>(sum))})}),
                  /*loopTimeoutMs=*/15000);
}

// An endless loop carrying a [64] tensor as well as the counter.
Model infiniteTensorLoop() {
  Model model;
  {
    SubgraphBuilder cond;
    const uint32_t i = cond.input(I32, {1});
    cond.input(I32, {64});
    const uint32_t out = cond.output(B8, {1});
    cond.op(OperationType::GREATER_EQUAL, {i, cond.int32Tensor({1}, {0})}, {out});
    model.referenced.push_back(cond.build());
  }
  {
    SubgraphBuilder body;
    const uint32_t i = body.input(I32, {1});
    const uint32_t t = body.input(I32, {64});
    const uint32_t iNext = body.output(I32, {1});
    const uint32_t tNext = body.output(I32, {64});
    body.op(OperationType::MAXIMUM, {i, body.int32Tensor({1}, {0})}, {iNext});
    body.op(OperationType::ADD, {t, body.int32Tensor({1}, {1}), body.scalar(0)}, {tNext});
    model.referenced.push_back(body.build());
  }
  SubgraphBuilder main;
  const uint32_t t0 = main.input(I32, {64});
  const uint32_t out = main.output(I32, {64});
  main.op(OperationType::WHILE, {main.subgraphRef(0), main.subgraphRef(1), main.int32Tensor({1}, {0}), t0},
          {main.temp(I32, {1}), out});
  model.main = main.build();
  return model;
}

TEST(Targeted, InfiniteLoopsTimeOutOnEveryDevice) {
  ExecutionResult timedOut;
  timedOut.status = Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "");
  for (const Device* device : allDevices()) {
    const auto start = std::chrono::steady_clock::now();
    RunOptions options;
    options.device = device;
    options.loopTimeoutMs = 50;
    const ExecutionResult scalar = runModel(infiniteLoop(), {int32s({1}, {0})}, options);
    EXPECT_EQ(differential::compareResults(timedOut, scalar), "")
        << "scalar loop on " << device->name() << ": " << differential::describe(scalar);
    const ExecutionResult tensor =
        runModel(infiniteTensorLoop(), {int32s({64}, std::vector<int32_t>(64, 0))}, options);
    EXPECT_EQ(differential::compareResults(timedOut, tensor), "")
        << "tensor loop on " << device->name() << ": " << differential::describe(tensor);
    // Two 50 ms timeouts; generous for a loaded machine, far below "hangs".
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << device->name();
  }
}

// The execution deadline (not the loop timeout) ends an endless loop too.
TEST(Targeted, ExecutionDeadlineEndsAnInfiniteLoopOnEveryDevice) {
  ExecutionResult timedOut;
  timedOut.status = Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT, "");
  for (const Device* device : allDevices()) {
    const auto start = std::chrono::steady_clock::now();
    RunOptions options;
    options.device = device;
    options.loopTimeoutMs = 15000;
    options.timeoutMs = 50;
    const ExecutionResult result = runModel(infiniteLoop(), {int32s({1}, {0})}, options);
    EXPECT_EQ(differential::compareResults(timedOut, result), "")
        << device->name() << ": " << differential::describe(result);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << device->name();
  }
}

}  // namespace
}  // namespace nnfab
