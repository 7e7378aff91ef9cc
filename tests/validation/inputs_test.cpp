// validateInputs: request inputs against the main subgraph (§5.7).
#include "validation/model_builder.h"

namespace nnfab::test {
namespace {

TensorValue value(OperandType type, Dimensions dims, size_t bytes) {
  TensorValue v;
  v.type = type;
  v.dimensions = std::move(dims);
  v.data.assign(bytes, 0);
  return v;
}

TensorValue omitted() {
  TensorValue v;
  v.omitted = true;
  return v;
}

// main inputs: 0 TENSOR_FLOAT32 [2, 0], 1 TENSOR_INT32 unknown rank, 2 INT32 scalar,
// 3 TENSOR_BOOL8 [3].
Model requestModel() {
  SubgraphBuilder b;
  const uint32_t a = b.input(T::TENSOR_FLOAT32, {2, 0});
  const uint32_t i = b.input(T::TENSOR_INT32, {});
  const uint32_t s = b.input(T::INT32, {});
  const uint32_t m = b.input(T::TENSOR_BOOL8, {3});
  const uint32_t out = b.output(T::TENSOR_FLOAT32, {});
  b.op(Op::CONV_2D, {a, i, s, m}, {out});  // any op: only the inputs matter here
  Model model;
  model.main = b.sg;
  return model;
}

std::vector<TensorValue> goodInputs() {
  return {value(T::TENSOR_FLOAT32, {2, 5}, 40), value(T::TENSOR_INT32, {4}, 16),
          value(T::INT32, {}, 4), value(T::TENSOR_BOOL8, {3}, 3)};
}

TEST(ValidateInputs, ValidRequest) {
  const Model model = requestModel();
  ASSERT_TRUE(isValid(model));
  EXPECT_TRUE(validateInputs(model, goodInputs()).isOk());
  // Known dimensions may be left out; the model's are used.
  auto inputs = goodInputs();
  inputs[3].dimensions.clear();
  EXPECT_TRUE(validateInputs(model, inputs).isOk());
}

TEST(ValidateInputs, Count) {
  auto inputs = goodInputs();
  inputs.pop_back();
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request has 3 inputs, the model has 4"}));
}

TEST(ValidateInputs, OmittedInputsAllowed) {
  auto inputs = goodInputs();
  inputs[0] = omitted();
  inputs[2] = omitted();
  EXPECT_TRUE(validateInputs(requestModel(), inputs).isOk());
  inputs[0].data = {1};
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request input 0 (operand 0)", "omitted input must carry no"}));
}

TEST(ValidateInputs, Type) {
  auto inputs = goodInputs();
  inputs[1].type = T::TENSOR_FLOAT32;
  EXPECT_TRUE(statusFails(
      validateInputs(requestModel(), inputs),
      {"request input 1 (operand 1)", "type TENSOR_FLOAT32, the model expects TENSOR_INT32"}));
}

TEST(ValidateInputs, RankMustMatchKnownRank) {
  auto inputs = goodInputs();
  inputs[0] = value(T::TENSOR_FLOAT32, {2, 5, 1}, 40);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request input 0", "rank 3 ([2, 5, 1]), the model operand has rank 2"}));
  // Unknown rank in the model: any rank.
  inputs = goodInputs();
  inputs[1] = value(T::TENSOR_INT32, {1, 2, 3, 4, 5}, 480);
  EXPECT_TRUE(validateInputs(requestModel(), inputs).isOk());
}

TEST(ValidateInputs, KnownDimensionsMustMatch) {
  auto inputs = goodInputs();
  inputs[0] = value(T::TENSOR_FLOAT32, {3, 5}, 60);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request input 0", "dimension 0 is 3, the model operand has 2"}));
}

TEST(ValidateInputs, MustBeFullySpecified) {
  auto inputs = goodInputs();
  inputs[0] = value(T::TENSOR_FLOAT32, {2, 0}, 0);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request input 0", "dimension 1 is unknown (0)"}));
  // No dimensions in the request: the model's [2, 0] are not enough.
  inputs[0] = value(T::TENSOR_FLOAT32, {}, 0);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs), {"dimension 1 is unknown"}));
  // Nor is an unknown rank.
  inputs = goodInputs();
  inputs[1] = value(T::TENSOR_INT32, {}, 4);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request input 1", "the model operand has unknown rank"}));
}

TEST(ValidateInputs, ScalarHasNoDimensions) {
  auto inputs = goodInputs();
  inputs[2] = value(T::INT32, {1}, 4);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs),
                          {"request input 2 (operand 2)", "a INT32 scalar has no dimensions"}));
}

TEST(ValidateInputs, DataSize) {
  auto inputs = goodInputs();
  inputs[0].data.resize(39);
  EXPECT_TRUE(
      statusFails(validateInputs(requestModel(), inputs),
                  {"request input 0", "data has 39 bytes, TENSOR_FLOAT32 [2, 5] needs 40"}));
  inputs = goodInputs();
  inputs[2].data.resize(8);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs), {"data has 8 bytes"}));
  inputs = goodInputs();
  inputs[3].data.clear();
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs), {"needs 3"}));
}

TEST(ValidateInputs, SizeOverflow) {
  auto inputs = goodInputs();
  inputs[1] = value(T::TENSOR_INT32, {65536, 65536, 65536}, 0);
  EXPECT_TRUE(
      statusFails(validateInputs(requestModel(), inputs), {"request input 1", "overflows uint32"}));
  inputs[1] = value(T::TENSOR_INT32, {0xFFFFFFFFu, 0xFFFFFFFFu}, 0);
  EXPECT_TRUE(statusFails(validateInputs(requestModel(), inputs), {"overflows uint32"}));
}

}  // namespace
}  // namespace nnfab::test
