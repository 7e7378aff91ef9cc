// §5.5 reference cycles, DAG sharing, unreferenced subgraphs, and deep
// nesting without recursion.
#include <chrono>

#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

// An unused SUBGRAPH operand in `sg` naming referenced[target]: it counts for
// the cycle walk whether an operation uses it or not.
void addReference(Subgraph& sg, uint32_t target) {
  Operand o = tensor(T::SUBGRAPH, {}, L::SUBGRAPH);
  o.subgraph = target;
  sg.operands.push_back(o);
}

TEST(ValidateCycles, SelfReference) {
  Model model = ifModel();
  addReference(model.referenced[0], 0);
  EXPECT_TRUE(isInvalid(model, {"subgraph 1 (referenced[0]), operand 2",
                                "circular subgraph reference to subgraph 1 (referenced[0])"}));
}

TEST(ValidateCycles, TwoCycle) {
  Model model = ifModel();
  addReference(model.referenced[0], 1);
  addReference(model.referenced[1], 0);
  EXPECT_TRUE(isInvalid(model, {"circular subgraph reference"}));
}

TEST(ValidateCycles, CycleThroughControlFlowOperations) {
  // referenced[1] is an IF whose branches are referenced[0]; referenced[0]
  // gets an IF back to referenced[1].
  Model model = ifModel();
  SubgraphBuilder loop;
  const uint32_t x = loop.input(T::TENSOR_FLOAT32, {2});
  const uint32_t c = loop.constant(T::TENSOR_BOOL8, {1});
  const uint32_t t = loop.ref(1);
  const uint32_t e = loop.ref(1);
  const uint32_t y = loop.output(T::TENSOR_FLOAT32, {2});
  loop.op(Op::IF, {c, t, e, x}, {y});
  model.referenced[0] = loop.sg;
  EXPECT_TRUE(isValid(model));  // 0 -> 1, no cycle yet
  SubgraphBuilder back = loop;
  back.sg.operands[t].subgraph = 0;
  back.sg.operands[e].subgraph = 0;
  model.referenced[1] = back.sg;  // 0 -> 1 -> 0
  EXPECT_TRUE(isInvalid(model, {"circular subgraph reference"}));
}

TEST(ValidateCycles, DagSharingIsFine) {
  // main -> then A, else B; A -> C and B -> C (a diamond), C a leaf.
  Model model = ifModel();
  model.referenced.push_back(identitySubgraph(T::TENSOR_FLOAT32, {2}));
  addReference(model.referenced[0], 2);
  addReference(model.referenced[1], 2);
  addReference(model.referenced[1], 2);
  EXPECT_TRUE(isValid(model));
}

TEST(ValidateCycles, UnreferencedSubgraphsAreNotWalked) {
  // referenced[2] and [3] refer to each other but main cannot reach them.
  Model model = ifModel();
  model.referenced.push_back(identitySubgraph(T::TENSOR_FLOAT32, {2}));
  model.referenced.push_back(identitySubgraph(T::TENSOR_FLOAT32, {2}));
  addReference(model.referenced[2], 3);
  addReference(model.referenced[3], 2);
  EXPECT_TRUE(isValid(model));
  // Reachable from main, the same cycle is an error.
  addReference(model.main, 2);
  EXPECT_TRUE(isInvalid(model, {"circular subgraph reference"}));
}

// main and referenced[i < depth-1] run IF(c, referenced[i+1], referenced[i+1],
// c, x); the last one is a CAST. Each level has two separate SUBGRAPH
// operands for the next, so every path from main is distinct: a naive walk of
// all paths would take 2^depth steps.
Model nestedIfChain(uint32_t depth) {
  auto level = [](uint32_t next) {
    SubgraphBuilder b;
    const uint32_t c = b.input(T::TENSOR_BOOL8, {1});
    const uint32_t x = b.input(T::TENSOR_FLOAT32, {1});
    const uint32_t t = b.ref(next);
    const uint32_t e = b.ref(next);
    const uint32_t y = b.output(T::TENSOR_FLOAT32, {1});
    b.op(Op::IF, {c, t, e, c, x}, {y});
    return b.sg;
  };
  Model model;
  model.main = level(0);
  model.referenced.reserve(depth);
  for (uint32_t i = 0; i + 1 < depth; ++i) model.referenced.push_back(level(i + 1));
  SubgraphBuilder leaf;
  leaf.input(T::TENSOR_BOOL8, {1});
  const uint32_t x = leaf.input(T::TENSOR_FLOAT32, {1});
  const uint32_t y = leaf.output(T::TENSOR_FLOAT32, {1});
  leaf.op(Op::CAST, {x}, {y});
  model.referenced.push_back(leaf.sg);
  return model;
}

TEST(ValidateCycles, DeepNestingValidatesWithoutRecursion) {
  constexpr uint32_t kDepth = 100000;
  const Model model = nestedIfChain(kDepth);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(isValid(model));
  EXPECT_TRUE(isValid(model, ValidationMode::DRIVER));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  // Linear work: well under a second in a release build; generous for sanitizers.
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

TEST(ValidateCycles, DeepCycleIsFound) {
  constexpr uint32_t kDepth = 100000;
  Model model = nestedIfChain(kDepth);
  addReference(model.referenced.back(), 0);  // the leaf refers back to the top
  EXPECT_TRUE(isInvalid(model, {"subgraph 100000 (referenced[99999]), operand 3",
                                "circular subgraph reference to subgraph 1 (referenced[0])"}));
}

TEST(ValidateCycles, DeepErrorIsLocated) {
  Model model = nestedIfChain(1000);
  model.referenced[700].operands[1].type = T::TENSOR_INT32;  // x of subgraph 701
  // Subgraph 700's IF sees the mismatch first (main first, then in order).
  EXPECT_TRUE(isInvalid(model, {"subgraph 700 (referenced[699]), operation 0 (IF), input 4",
                                "then input 1 is not compatible with outer input 4",
                                "type TENSOR_INT32 vs TENSOR_FLOAT32"}));
}

}  // namespace
}  // namespace nnfab::test
