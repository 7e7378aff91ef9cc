// The ONNX importer on small models built here: refusals name the node, its
// operator and why; malformed files are told apart; the mappings that are not
// one-to-one (integer Div, Gemm, Where with broadcasting, Cast from BOOL,
// Relu, Ceil, Slice with computed starts) compute what ONNX defines.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "api/run_model.h"
#include "onnx/onnx_import.h"
#include "runtime/device.h"
#include "validation/validate.h"

namespace nnfab {
namespace {

using onnx_import::ImportFailure;

struct GraphBuilder {
  onnx::ModelProto model;
  onnx::GraphProto* g;
  explicit GraphBuilder(int64_t opset = 13) {
    model.set_ir_version(8);
    auto* o = model.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    g = model.mutable_graph();
    g->set_name("g");
  }
  static void typeOf(onnx::ValueInfoProto* v, int elem, std::vector<int64_t> dims) {
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(elem);
    auto* s = t->mutable_shape();
    for (int64_t d : dims) s->add_dim()->set_dim_value(d);
  }
  void input(const std::string& name, int elem, std::vector<int64_t> dims) {
    auto* v = g->add_input();
    v->set_name(name);
    typeOf(v, elem, dims);
  }
  void output(const std::string& name, int elem, std::vector<int64_t> dims) {
    auto* v = g->add_output();
    v->set_name(name);
    typeOf(v, elem, dims);
  }
  onnx::NodeProto* node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
                        const std::string& name = "") {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto& i : in) n->add_input(i);
    for (auto& o : out) n->add_output(o);
    return n;
  }
  template <typename T>
  void initializer(const std::string& name, int elem, std::vector<int64_t> dims, const std::vector<T>& values) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
    t->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
  }
  std::string bytes() const { return model.SerializeAsString(); }
};

constexpr int kFloat = onnx::TensorProto::FLOAT;
constexpr int kInt64 = onnx::TensorProto::INT64;
constexpr int kInt32 = onnx::TensorProto::INT32;
constexpr int kBool = onnx::TensorProto::BOOL;

template <typename T>
TensorValue tensor(OperandType type, Dimensions dims, const std::vector<T>& v) {
  TensorValue t;
  t.type = type;
  t.dimensions = std::move(dims);
  t.data.resize(v.size() * sizeof(T));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

template <typename T>
std::vector<T> values(const TensorValue& t) {
  std::vector<T> v(t.data.size() / sizeof(T));
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

ExecutionResult runCpu(const GraphBuilder& b, const std::vector<TensorValue>& inputs) {
  auto imported = onnx_import::importModel(b.bytes());
  EXPECT_TRUE(imported.isOk()) << imported.status().message();
  if (!imported) return {};
  EXPECT_TRUE(validateModel(imported->model).isOk());
  RunOptions options;
  options.device = findDevice("cpu");
  ExecutionResult r = runModel(imported->model, inputs, options);
  EXPECT_TRUE(r.status.isOk()) << r.status.message();
  return r;
}

TEST(OnnxImport, MalformedBytesAreToldApart) {
  ImportFailure failure;
  auto r = onnx_import::importModel("this is not protobuf \xff\xff\xff", &failure);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(failure, ImportFailure::MALFORMED);
  EXPECT_NE(r.status().message().find("not a valid ONNX model"), std::string::npos);
  // A truncated model.
  GraphBuilder b;
  b.input("x", kFloat, {2});
  b.node("Neg", {"x"}, {"y"});
  b.output("y", kFloat, {2});
  const std::string whole = b.bytes();
  r = onnx_import::importModel(whole.substr(0, whole.size() - 5), &failure);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(failure, ImportFailure::MALFORMED);
  EXPECT_TRUE(onnx_import::importModel(whole).isOk());
}

TEST(OnnxImport, UnsupportedOperatorNamesNodeAndOperator) {
  GraphBuilder b;
  b.input("x", kFloat, {2, 3});
  b.node("Softmax", {"x"}, {"y"}, "my_softmax");
  b.output("y", kFloat, {2, 3});
  ImportFailure failure;
  auto r = onnx_import::importModel(b.bytes(), &failure);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(failure, ImportFailure::UNSUPPORTED);
  EXPECT_EQ(r.status().code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(r.status().message().find("node 'my_softmax' (Softmax): this operator is not supported"), std::string::npos)
      << r.status().message();
}

TEST(OnnxImport, Int64OutOfRangeIsRefused) {
  GraphBuilder b;
  b.input("x", kInt64, {1});
  b.initializer<int64_t>("big", kInt64, {1}, {int64_t{1} << 40});
  b.node("Add", {"x", "big"}, {"y"});
  b.output("y", kInt64, {1});
  auto r = onnx_import::importModel(b.bytes());
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("1099511627776"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("does not fit in INT32"), std::string::npos);
  // Test data: the same check.
  onnx::TensorProto t;
  t.set_data_type(kInt64);
  t.add_dims(2);
  t.add_int64_data(5);
  t.add_int64_data(-(int64_t{1} << 33));
  EXPECT_FALSE(onnx_import::readTensor(t.SerializeAsString()).isOk());
  t.set_int64_data(1, -7);
  auto ok = onnx_import::readTensor(t.SerializeAsString());
  ASSERT_TRUE(ok.isOk());
  EXPECT_EQ(ok->type, OperandType::TENSOR_INT32);
  EXPECT_EQ(values<int32_t>(*ok), (std::vector<int32_t>{5, -7}));
}

TEST(OnnxImport, IntegerDivTruncatesLikeOnnx) {
  GraphBuilder b;
  b.input("a", kInt32, {5});
  b.input("b", kInt32, {5});
  b.node("Div", {"a", "b"}, {"q"});
  b.output("q", kInt32, {5});
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  auto r = runCpu(b, {tensor<int32_t>(OperandType::TENSOR_INT32, {5}, {-5, 5, -6, 7, kMin}),
                      tensor<int32_t>(OperandType::TENSOR_INT32, {5}, {2, -2, 3, 2, 2})});
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(values<int32_t>(r.outputs[0]), (std::vector<int32_t>{-2, -2, -2, 3, kMin / 2}));
}

TEST(OnnxImport, GemmBecomesFullyConnected) {
  GraphBuilder b;
  b.input("a", kFloat, {2, 3});
  b.initializer<float>("w", kFloat, {3, 2}, {1, 2, 3, 4, 5, 6});  // [K=3, N=2], transB = 0
  b.initializer<float>("c", kFloat, {2}, {10, 20});
  auto* n = b.node("Gemm", {"a", "w", "c"}, {"y"});
  auto* alpha = n->add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(2.0f);
  b.output("y", kFloat, {2, 2});
  auto r = runCpu(b, {tensor<float>(OperandType::TENSOR_FLOAT32, {2, 3}, {1, 0, 0, 1, 1, 1})});
  ASSERT_EQ(r.outputs.size(), 1u);
  // 2 * A.W + c: row 0 = 2*[1,2] + c, row 1 = 2*[9,12] + c.
  EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{12, 24, 28, 44}));
  // A computed B is refused with the reason.
  GraphBuilder m;
  m.input("a", kFloat, {2, 3});
  m.input("b", kFloat, {3, 2});
  m.node("MatMul", {"a", "b"}, {"y"}, "mm");
  m.output("y", kFloat, {2, 2});
  auto refused = onnx_import::importModel(m.bytes());
  ASSERT_FALSE(refused.isOk());
  EXPECT_NE(refused.status().message().find("node 'mm' (MatMul): its B"), std::string::npos) << refused.status().message();
}

TEST(OnnxImport, WhereCastReluCeil) {
  GraphBuilder b;
  b.input("c", kBool, {2, 2});
  b.input("x", kFloat, {2, 2});
  b.initializer<float>("y", kFloat, {1}, {-1.5f});
  b.node("Where", {"c", "x", "y"}, {"w"});   // broadcasts y
  b.node("Relu", {"w"}, {"r"});
  b.node("Ceil", {"w"}, {"up"});
  b.node("Cast", {"c"}, {"f"})->add_attribute()->CopyFrom([] {
    onnx::AttributeProto a;
    a.set_name("to");
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(kFloat);
    return a;
  }());
  b.output("r", kFloat, {2, 2});
  b.output("up", kFloat, {2, 2});
  b.output("f", kFloat, {2, 2});
  const float nan = std::nanf("");
  auto r = runCpu(b, {tensor<uint8_t>(OperandType::TENSOR_BOOL8, {2, 2}, {1, 0, 1, 1}),
                      tensor<float>(OperandType::TENSOR_FLOAT32, {2, 2}, {2.5f, 9, nan, -0.5f})});
  ASSERT_EQ(r.outputs.size(), 3u);
  const auto relu = values<float>(r.outputs[0]);
  EXPECT_EQ(relu[0], 2.5f);
  EXPECT_EQ(relu[1], 0.0f);
  EXPECT_TRUE(std::isnan(relu[2]));  // ONNX Relu keeps NaN (NNAPI's RELU would give 0)
  EXPECT_EQ(relu[3], 0.0f);
  const auto up = values<float>(r.outputs[1]);
  EXPECT_EQ(up[0], 3.0f);
  EXPECT_EQ(up[1], -1.0f);
  EXPECT_EQ(up[3], -0.0f);
  EXPECT_EQ(values<float>(r.outputs[2]), (std::vector<float>{1, 0, 1, 1}));
}

TEST(OnnxImport, ReshapeOfInt32DataIsRefusedWithTheReason) {
  GraphBuilder b;
  b.input("x", kInt32, {2, 3});
  b.initializer<int64_t>("shape", kInt64, {1}, {6});
  b.node("Reshape", {"x", "shape"}, {"y"}, "flat");
  b.output("y", kInt32, {6});
  auto r = onnx_import::importModel(b.bytes());
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("node 'flat' (Reshape)"), std::string::npos);
  EXPECT_NE(r.status().message().find("RESHAPE takes TENSOR_FLOAT32 data only"), std::string::npos);
}

TEST(OnnxImport, OutputThatIsAnInputGetsAnIdentity) {
  GraphBuilder b;
  b.input("x", kFloat, {});  // rank 0 -> [1]
  b.node("Identity", {"x"}, {"y"});
  b.output("y", kFloat, {});
  b.output("x", kFloat, {});
  auto r = runCpu(b, {tensor<float>(OperandType::TENSOR_FLOAT32, {1}, {4.0f})});
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0].dimensions, (Dimensions{1}));
  EXPECT_EQ(values<float>(r.outputs[1]), (std::vector<float>{4.0f}));
}

}  // namespace
}  // namespace nnfab

namespace nnfab {
namespace {

// Truncations and byte flips of a real model: every one is imported or
// refused with a status, never a crash or an exception.
TEST(OnnxImport, CorruptedModelsNeverCrash) {
  std::ifstream in(std::string(NNFAB_ONNX_TESTDATA_DIR) + "/node/test_loop11/model.onnx", std::ios::binary);
  if (!in) GTEST_SKIP() << "libonnx-testdata is not installed";
  const std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t refused = 0, imported = 0;
  for (size_t cut = 0; cut < model.size(); cut += 7) {
    auto r = onnx_import::importModel(model.substr(0, cut));
    (r.isOk() ? imported : refused)++;
    if (!r.isOk()) {
      EXPECT_FALSE(r.status().message().empty());
    }
  }
  uint32_t seed = 12345;
  for (int round = 0; round < 400; ++round) {
    std::string mutated = model;
    for (int k = 0; k < 3; ++k) {
      seed = seed * 1664525u + 1013904223u;
      mutated[(seed >> 8) % mutated.size()] = static_cast<char>(seed >> 24);
    }
    auto r = onnx_import::importModel(mutated);
    (r.isOk() ? imported : refused)++;
    if (r.isOk()) {
      EXPECT_TRUE(validateModel(r->model).isOk()) << "an accepted model must be valid";
    }
  }
  EXPECT_GT(refused, 0u);
}

// Every node test of the package, each with 20 two-byte mutations (the same
// generator): ONNX shape inference must never see an operator whose
// inference function could crash on a hostile attribute.
TEST(OnnxImport, MutatedNodeTestsNeverCrash) {
  const std::filesystem::path dir = std::string(NNFAB_ONNX_TESTDATA_DIR) + "/node";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "libonnx-testdata is not installed";
  size_t runs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path() / "model.onnx", std::ios::binary);
    const std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (model.empty()) continue;
    uint32_t seed = static_cast<uint32_t>(model.size());
    for (int round = 0; round < 20; ++round, ++runs) {
      std::string mutated = model;
      for (int k = 0; k < 2; ++k) {
        seed = seed * 1664525u + 1013904223u;
        mutated[(seed >> 8) % mutated.size()] = static_cast<char>(seed >> 24);
      }
      auto r = onnx_import::importModel(mutated);
      if (r.isOk()) {
        EXPECT_TRUE(validateModel(r->model).isOk()) << entry.path().filename() << " round " << round;
      } else {
        EXPECT_FALSE(r.status().message().empty());
      }
    }
  }
  EXPECT_GT(runs, 0u);
}

}  // namespace
}  // namespace nnfab

namespace nnfab {
namespace {

// Declared shapes are the model's word: a huge one is refused, not allocated.
TEST(OnnxImport, HugeDeclaredShapesAreRefusedNotAllocated) {
  GraphBuilder b;
  b.input("c", kBool, {1});
  b.input("x", kFloat, {100000, 100000});
  b.initializer<float>("y", kFloat, {1}, {0.0f});
  b.node("Where", {"c", "x", "y"}, {"w"}, "wide");
  b.output("w", kFloat, {100000, 100000});
  auto r = onnx_import::importModel(b.bytes());
  ASSERT_FALSE(r.isOk());
  EXPECT_NE(r.status().message().find("node 'wide' (Where)"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("too large"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace nnfab

namespace nnfab {
namespace {

onnx::GraphProto* graphAttribute(onnx::NodeProto* node, const std::string& name) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  a->mutable_g()->set_name(name);
  return a->mutable_g();
}

void addValue(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list, const std::string& name, int elem,
              std::vector<int64_t> dims) {
  auto* v = list->Add();
  v->set_name(name);
  GraphBuilder::typeOf(v, elem, std::move(dims));
}

onnx::NodeProto* addNode(onnx::GraphProto* g, const std::string& op, std::vector<std::string> in,
                         std::vector<std::string> out) {
  auto* n = g->add_node();
  n->set_op_type(op);
  for (auto& i : in) n->add_input(i);
  for (auto& o : out) n->add_output(o);
  return n;
}

void addInt64(onnx::GraphProto* g, const std::string& name, int64_t v) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(kInt64);
  t->add_int64_data(v);
}

std::vector<ExecutionResult> runEverywhere(const Model& model, const std::vector<TensorValue>& inputs) {
  std::vector<ExecutionResult> out;
  for (const char* name : {"cpu", "hls", "sim"}) {
    const Device* device = findDevice(name);
    if (device == nullptr) continue;
    RunOptions options;
    options.device = device;
    out.push_back(runModel(model, inputs, options));
  }
  return out;
}

// If branches read outer values by name: they become IF inputs.
TEST(OnnxImport, IfBranchesCaptureOuterValues) {
  GraphBuilder b(13);
  b.input("c", kBool, {});
  b.input("x", kInt32, {2});
  b.initializer<int32_t>("one", kInt32, {1}, {1});
  auto* n = b.node("If", {"c"}, {"y"}, "choose");
  auto* t = graphAttribute(n, "then_branch");
  addNode(t, "Add", {"x", "one"}, {"t_out"});
  addValue(t->mutable_output(), "t_out", kInt32, {2});
  auto* e = graphAttribute(n, "else_branch");
  addNode(e, "Neg", {"x"}, {"e_out"});
  addValue(e->mutable_output(), "e_out", kInt32, {2});
  b.output("y", kInt32, {2});
  auto imported = onnx_import::importModel(b.bytes());
  ASSERT_TRUE(imported.isOk()) << imported.status().message();
  for (uint8_t c : {1, 0}) {
    for (const auto& r : runEverywhere(imported->model, {tensor<uint8_t>(OperandType::TENSOR_BOOL8, {1}, {c}),
                                                         tensor<int32_t>(OperandType::TENSOR_INT32, {2}, {5, -7})})) {
      ASSERT_TRUE(r.status.isOk()) << r.status.message();
      EXPECT_EQ(values<int32_t>(r.outputs[0]), c ? (std::vector<int32_t>{6, -6}) : (std::vector<int32_t>{-5, 7}));
    }
  }
}

// Loop(M, cond, v) with body cond_out = i < stop, v_out = v + v; a scan
// output of v declared [rows, 1].
Model loopModel(bool withM, bool withCond, int64_t stop, int64_t rows) {
  GraphBuilder b(13);
  if (withM) b.input("M", kInt64, {});
  if (withCond) b.input("cond", kBool, {});
  b.input("v", kFloat, {1});
  auto* n = b.node("Loop", {withM ? "M" : "", withCond ? "cond" : "", "v"}, {"v_final", "scan"}, "loop");
  auto* body = graphAttribute(n, "body");
  addValue(body->mutable_input(), "i", kInt64, {});
  addValue(body->mutable_input(), "c_in", kBool, {});
  addValue(body->mutable_input(), "v_in", kFloat, {1});
  addInt64(body, "stop", stop);
  addNode(body, "Less", {"i", "stop"}, {"c_out"});
  addNode(body, "Add", {"v_in", "v_in"}, {"v_out"});
  addNode(body, "Identity", {"v_in"}, {"s_out"});
  addValue(body->mutable_output(), "c_out", kBool, {});
  addValue(body->mutable_output(), "v_out", kFloat, {1});
  addValue(body->mutable_output(), "s_out", kFloat, {1});
  b.output("v_final", kFloat, {1});
  b.output("scan", kFloat, {rows, 1});
  auto imported = onnx_import::importModel(b.bytes());
  EXPECT_TRUE(imported.isOk()) << imported.status().message();
  return imported.isOk() ? imported->model : Model{};
}

TEST(OnnxImport, LoopWithoutTripCountRunsWhileTheBodySaysSo) {
  // for (i = 0; cond; ++i) { cond = i < 3 }: 4 iterations.
  const Model model = loopModel(/*withM=*/false, /*withCond=*/true, 3, 8);
  for (const auto& r : runEverywhere(model, {tensor<uint8_t>(OperandType::TENSOR_BOOL8, {1}, {1}),
                                             tensor<float>(OperandType::TENSOR_FLOAT32, {1}, {1.5f})})) {
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
    EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{24.0f}));
    EXPECT_EQ(r.outputs[1].dimensions, (Dimensions{4, 1}));
    EXPECT_EQ(values<float>(r.outputs[1]), (std::vector<float>{1.5f, 3, 6, 12}));
  }
}

TEST(OnnxImport, LoopWithoutCondStillReadsTheBodysCondLikeOnnxRuntime) {
  // M = 5, no cond input, body cond_out = i < 1: stops after 2 iterations.
  const Model model = loopModel(/*withM=*/true, /*withCond=*/false, 1, 5);
  for (const auto& r : runEverywhere(model, {tensor<int32_t>(OperandType::TENSOR_INT32, {1}, {5}),
                                             tensor<float>(OperandType::TENSOR_FLOAT32, {1}, {1.0f})})) {
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
    EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{4.0f}));
    EXPECT_EQ(r.outputs[1].dimensions, (Dimensions{2, 1}));
  }
}

TEST(OnnxImport, LoopZeroIterationsAndMoreThanTheDeclaredRows) {
  const Model model = loopModel(/*withM=*/true, /*withCond=*/true, 100, 3);
  const auto v = tensor<float>(OperandType::TENSOR_FLOAT32, {1}, {1.0f});
  const auto yes = tensor<uint8_t>(OperandType::TENSOR_BOOL8, {1}, {1});
  for (const auto& r : runEverywhere(model, {tensor<int32_t>(OperandType::TENSOR_INT32, {1}, {0}), yes, v})) {
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
    EXPECT_EQ(values<float>(r.outputs[0]), (std::vector<float>{1.0f}));
    EXPECT_EQ(r.outputs[1].dimensions, (Dimensions{0, 1}));
  }
  // 4 iterations but only 3 declared rows: a clear failure, not 3 rows.
  for (const auto& r : runEverywhere(model, {tensor<int32_t>(OperandType::TENSOR_INT32, {1}, {4}), yes, v})) {
    EXPECT_EQ(r.status.code(), ErrorStatus::GENERAL_FAILURE);
    EXPECT_NE(r.status.message().find("SLICE"), std::string::npos) << r.status.message();
  }
}

}  // namespace
}  // namespace nnfab
