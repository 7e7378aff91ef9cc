// Partitioning (host/runtime/partition.h) against a stand-in fabric that
// takes every operation without a FLOAT32 operand (IF/WHILE: recursively),
// so the plans here do not depend on what the real compiler supports.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "cpu/cpu_executor.h"
#include "runtime/partition.h"
#include "runtime/runtime_models.h"
#include "runtime/step_model.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/random_model.h"
#include "validation/validate.h"

namespace nnfab::runtime {
namespace {

using testing::SubgraphBuilder;

bool noFloat(const Model& model, uint32_t s, uint32_t i, std::string* why) {
  const Subgraph& sg = model.subgraph(s);
  const Operation& op = sg.operations[i];
  for (uint32_t k : op.inputs) {
    const Operand& operand = sg.operands[k];
    if (operand.lifetime == OperandLifeTime::SUBGRAPH) {
      const Subgraph& child = model.subgraph(operand.subgraph + 1);
      for (uint32_t j = 0; j < child.operations.size(); ++j) {
        if (!noFloat(model, operand.subgraph + 1, j, why)) return false;
      }
    } else if (operand.type == OperandType::TENSOR_FLOAT32) {
      if (why) *why = "FLOAT32 on the stand-in fabric";
      return false;
    }
  }
  return true;
}

FabricTarget standIn() {
  FabricTarget target;
  target.name = "fab";
  target.supports = noFloat;
  target.capabilities.whilePerformance = {0.2f, 0.2f};
  target.capabilities.ifPerformance = {0.2f, 0.2f};
  target.capabilities.tensorPerformance = {2.0f, 2.0f};
  return target;
}

std::vector<StepKind> kinds(const SubgraphPlan& plan) {
  std::vector<StepKind> out;
  for (const Step& step : plan.steps) out.push_back(step.kind);
  return out;
}

TEST(Partition, MixedModelSplitsIntoMaximalRuns) {
  const Model model = testing::mixedModel();
  ASSERT_TRUE(validateModel(model).isOk());
  const Plan plan = partition(model, standIn());
  ASSERT_EQ(kinds(plan.main()),
            (std::vector<StepKind>{StepKind::FABRIC, StepKind::CPU, StepKind::FABRIC}));
  const auto& steps = plan.main().steps;
  // Operand numbers as mixedModel creates them: a 0, f 1, none 2, t 3, u 4, v 5, g 6.
  EXPECT_EQ(steps[0].operations, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(steps[0].inputs, (std::vector<uint32_t>{0}));      // the constant is not an input
  EXPECT_EQ(steps[0].outputs, (std::vector<uint32_t>{3, 4}));  // both read by step 2
  EXPECT_EQ(steps[1].inputs, (std::vector<uint32_t>{1}));
  EXPECT_EQ(steps[1].outputs, (std::vector<uint32_t>{6}));  // a main output
  EXPECT_EQ(steps[2].inputs, (std::vector<uint32_t>{4, 3}));
  EXPECT_EQ(steps[2].outputs, (std::vector<uint32_t>{5}));
  EXPECT_EQ(steps[1].reasons[0], "FLOAT32 on the stand-in fabric");
  EXPECT_TRUE(steps[0].reasons[0].empty());
  EXPECT_TRUE(plan.usesFabric());
}

TEST(Partition, SupportedControlFlowGoesWholeToTheFabric) {
  for (const Model& model : {testing::counterLoop(), testing::nestedLoops(), testing::intIf()}) {
    const Plan plan = partition(model, standIn());
    ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::FABRIC});
    EXPECT_EQ(plan.main().height, 0u);
    for (size_t s = 1; s < plan.subgraphs.size(); ++s) EXPECT_FALSE(plan.subgraphs[s].planned);
  }
}

TEST(Partition, WhileWithAnUnsupportedPartIsInterpreted) {
  const Model model = testing::mixedLoop();
  const Plan plan = partition(model, standIn());
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::WHILE});
  const Step& step = plan.main().steps[0];
  EXPECT_EQ(step.children[0], 1u);  // cond = referenced[0]
  EXPECT_EQ(step.children[1], 2u);  // body = referenced[1]
  EXPECT_NE(step.reasons[0].find("FLOAT32"), std::string::npos) << step.reasons[0];
  EXPECT_EQ(kinds(plan.subgraphs[1]), std::vector<StepKind>{StepKind::FABRIC});
  EXPECT_EQ(kinds(plan.subgraphs[2]), (std::vector<StepKind>{StepKind::FABRIC, StepKind::CPU}));
  EXPECT_EQ(plan.main().height, 1u);
  // The body's steps pass nothing to each other: both outputs are body outputs.
  for (const Step& s : plan.subgraphs[2].steps) EXPECT_EQ(s.outputs.size(), 1u);
}

TEST(Partition, ControlFlowWithNothingForTheFabricRunsWholeOnTheCpu) {
  const Plan plan = partition(testing::floatLoop(), standIn());
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::CPU});
  EXPECT_NE(plan.main().steps[0].reasons[0].find("runs whole on the CPU"), std::string::npos);
  EXPECT_FALSE(plan.usesFabric());
}

TEST(Partition, UnknownSizeControlFlowRunsWholeOnTheCpu) {
  const Plan plan = partition(testing::intIf(/*unknownOutput=*/true), standIn());
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::CPU});
  EXPECT_NE(plan.main().steps[0].reasons[0].find("unknown size"), std::string::npos);
  EXPECT_TRUE(hasOperandOfUnknownSize(testing::intIf(true), 0, 0));
  EXPECT_FALSE(hasOperandOfUnknownSize(testing::intIf(false), 0, 0));
}

TEST(Partition, CostRuleKeepsControlFlowOnTheHostWhenTheFabricIsNoCheaper) {
  FabricTarget slow = standIn();
  slow.capabilities.whilePerformance = {1.0f, 1.0f};  // no better than the host
  const Plan plan = partition(testing::counterLoop(), slow);
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::WHILE});
  EXPECT_NE(plan.main().steps[0].reasons[0].find("cost rule"), std::string::npos);
}

TEST(Partition, ControlFlowCostFollowsTheNnapiFormula) {
  // counterLoop: cond has 1 op, body has 1 op.
  DeviceCapabilities caps;
  caps.whilePerformance.execTime = 0.25f;
  caps.tensorPerformance.execTime = 2.0f;
  EXPECT_DOUBLE_EQ(controlFlowCost(testing::counterLoop(), 0, 0, caps), 0.25 + 2.0 + 2.0);
  EXPECT_DOUBLE_EQ(controlFlowCost(testing::counterLoop(), 0, 0, DeviceCapabilities{}), 3.0);
  // intIf: IF = ifPerformance + 0.5 * (then + else), one op each.
  caps.ifPerformance.execTime = 0.5f;
  EXPECT_DOUBLE_EQ(controlFlowCost(testing::intIf(), 0, 0, caps), 0.5 + 0.5 * (2.0 + 2.0));
  // nestedLoops: outer cond 1 op; outer body: its ops plus the inner WHILE.
  const Model nested = testing::nestedLoops();
  EXPECT_GT(controlFlowCost(nested, 0, 0, DeviceCapabilities{}), 4.0);
}

TEST(Partition, InterpretedNestingIsCapped) {
  const uint32_t depth = kMaxInterpretedDepth + 10;
  const Model model = testing::deepMixedChain(depth);
  ASSERT_TRUE(validateModel(model).isOk());
  const Plan plan = partition(model, standIn());
  EXPECT_EQ(plan.main().height, kMaxInterpretedDepth);
  // Follow the interpreted chain down to the level that runs whole on the CPU.
  uint32_t s = 0;
  uint32_t levels = 0;
  while (true) {
    const SubgraphPlan& sp = plan.subgraphs[s];
    const Step* loop = nullptr;
    for (const Step& step : sp.steps) {
      if (step.kind == StepKind::WHILE) loop = &step;
    }
    if (!loop) {
      bool cpuWhole = false;
      for (const Step& step : sp.steps) {
        for (size_t j = 0; j < step.operations.size(); ++j) {
          if (step.reasons[j].find("nested deeper than") != std::string::npos) cpuWhole = true;
        }
      }
      EXPECT_TRUE(cpuWhole) << "level " << levels;
      break;
    }
    ++levels;
    s = loop->children[1];
  }
  EXPECT_EQ(levels, kMaxInterpretedDepth);
}

TEST(Partition, DeepSupportedChainsStayOneStep) {
  // 2,000 levels of fabric-supported WHILE: one FABRIC step, no recursion per level.
  const Model model = testing::deepWhileChain(2000);
  const Plan plan = partition(model, standIn());
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::FABRIC});
}

// Every step of a random model becomes a valid sub-model the CPU executor
// accepts, with the step's inputs and outputs as its own.
TEST(StepModel, EveryStepOfRandomModelsIsAValidModel) {
  size_t seen[4] = {0, 0, 0, 0};  // per StepKind
  for (uint64_t seed = 0; seed < 120; ++seed) {
    testing::RandomModelOptions options;
    options.float32 = seed % 2 == 1;
    const Model model = testing::randomModel(seed, options);
    ASSERT_TRUE(validateModel(model).isOk()) << "seed " << seed;
    const Plan plan = partition(model, standIn());
    for (const SubgraphPlan& sp : plan.subgraphs) {
      for (const Step& step : sp.steps) {
        ++seen[static_cast<size_t>(step.kind)];
        const Model sub = extractStepModel(model, step);
        EXPECT_EQ(sub.main.inputIndexes.size(), step.inputs.size());
        EXPECT_EQ(sub.main.outputIndexes.size(), step.outputs.size());
        const auto prepared = cpu::CpuExecutor::prepare(sub);
        EXPECT_TRUE(prepared.isOk()) << "seed " << seed << ", subgraph " << step.subgraph << ": "
                                     << prepared.status().message();
      }
    }
  }
  for (size_t kind = 0; kind < 4; ++kind) {
    EXPECT_GT(seen[kind], 0u) << "no " << toString(static_cast<StepKind>(kind)) << " step";
  }
}

TEST(StepModel, KeepsOnlyTheSubgraphsTheStepReaches) {
  // mixedLoop's WHILE as one step: cond and body come along, renumbered.
  Step step;
  step.subgraph = 0;
  step.operations = {0};
  const Model model = testing::mixedLoop();
  step.inputs = {model.main.inputIndexes[0], model.main.inputIndexes[1]};
  step.outputs = model.main.outputIndexes;
  const Model sub = extractStepModel(model, step);
  EXPECT_EQ(sub.referenced.size(), 2u);
  EXPECT_TRUE(validateModel(sub).isOk());
  // A step with only the body's ADD needs no referenced subgraph.
  Step add;
  add.subgraph = 2;
  add.operations = {0};
  add.inputs = {0};
  add.outputs = {model.referenced[1].outputIndexes[0]};
  const Model addModel = extractStepModel(model, add);
  EXPECT_TRUE(addModel.referenced.empty());
  EXPECT_TRUE(validateModel(addModel).isOk()) << validateModel(addModel).message();
}

TEST(PlanText, NamesDevicesOperationsNestingAndReasons) {
  const Model model = testing::mixedLoop();
  const std::string text = formatPlan(model, partition(model, standIn()), "fab");
  EXPECT_NE(text.find("plan on fab: 2 fabric step(s), 1 CPU step(s), 1 interpreted IF/WHILE"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("step 0: host-interpreted operations [0 WHILE]"), std::string::npos) << text;
  EXPECT_NE(text.find("cond: subgraph 1 (referenced[0]):"), std::string::npos) << text;
  EXPECT_NE(text.find("body: subgraph 2 (referenced[1]):"), std::string::npos) << text;
  EXPECT_NE(text.find("step 1: cpu operations [1 MUL]"), std::string::npos) << text;
  EXPECT_NE(text.find("operation 1 (MUL) not on fab: FLOAT32 on the stand-in fabric"),
            std::string::npos)
      << text;
}

// IF (c) with the same subgraph for both branches: y = x + 1 (INT32), g = f * f (FLOAT32).
Model sharedBranchIf() {
  SubgraphBuilder branch;
  const uint32_t x = branch.input(OperandType::TENSOR_INT32, {2});
  const uint32_t f = branch.input(OperandType::TENSOR_FLOAT32, {2});
  const uint32_t one = branch.int32Tensor({1}, {1});
  const uint32_t none = branch.scalar(0);
  const uint32_t y = branch.output(OperandType::TENSOR_INT32, {2});
  const uint32_t g = branch.output(OperandType::TENSOR_FLOAT32, {2});
  branch.op(OperationType::ADD, {x, one, none}, {y});
  branch.op(OperationType::MUL, {f, f, none}, {g});
  SubgraphBuilder main;
  const uint32_t c = main.input(OperandType::TENSOR_BOOL8, {1});
  const uint32_t mx = main.input(OperandType::TENSOR_INT32, {2});
  const uint32_t mf = main.input(OperandType::TENSOR_FLOAT32, {2});
  const uint32_t ref = main.subgraphRef(0);
  const uint32_t my = main.output(OperandType::TENSOR_INT32, {2});
  const uint32_t mg = main.output(OperandType::TENSOR_FLOAT32, {2});
  main.op(OperationType::IF, {c, ref, ref, mx, mf}, {my, mg});
  Model model;
  model.main = main.build();
  model.referenced.push_back(branch.build());
  return model;
}

TEST(Partition, SharedSubgraphIsPlannedAndPrintedOnce) {
  const Model model = sharedBranchIf();
  ASSERT_TRUE(validateModel(model).isOk());
  const Plan plan = partition(model, standIn());
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::IF});
  EXPECT_EQ(plan.main().steps[0].children[0], 1u);
  EXPECT_EQ(plan.main().steps[0].children[1], 1u);
  EXPECT_EQ(kinds(plan.subgraphs[1]), (std::vector<StepKind>{StepKind::FABRIC, StepKind::CPU}));
  const std::string text = formatPlan(model, plan, "fab");
  EXPECT_NE(text.find("then: subgraph 1 (referenced[0]):\n"), std::string::npos) << text;
  EXPECT_NE(text.find("else: subgraph 1 (referenced[0]): plan shown above"), std::string::npos)
      << text;
  EXPECT_NE(text.find("1 fabric step(s), 1 CPU step(s), 1 interpreted"), std::string::npos) << text;
}

// Hand-off figures of a device whose fabric steps cost `fabricStepNs` and
// whose fabric operations cost the CPU's times tensorPerformance.
FabricTarget withHandoffs(double fabricStepNs, float tensorPerformance = 2.0f) {
  FabricTarget target = standIn();
  target.capabilities.tensorPerformance = {tensorPerformance, tensorPerformance};
  HandoffCosts costs;
  costs.fabricStepNs = fabricStepNs;
  costs.cpuStepNs = 1000;
  costs.cpuOperationNs = 22.5;
  costs.cpuScalarOperationNs = 1.35;
  costs.cpuNsPerElement = 0.155;
  target.handoffs = costs;
  return target;
}

TEST(HandoffRule, LoopWhoseFabricPartsCostMoreThanTheySaveRunsWholeOnTheCpu) {
  // mixedLoop: cond LESS and body ADD on the fabric, MUL on the CPU; one
  // microsecond per hand-off dwarfs operations of tens of nanoseconds.
  const Plan plan = partition(testing::mixedLoop(), withHandoffs(1000));
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::CPU});
  EXPECT_EQ(plan.main().steps[0].codes[0], ReasonCode::NOT_WORTH_HANDOFFS);
  EXPECT_NE(plan.main().steps[0].reasons[0].find("hand-offs"), std::string::npos) << plan.main().steps[0].reasons[0];
  EXPECT_FALSE(plan.usesFabric());
  // Nothing runs the subgraphs it planned before deciding.
  for (size_t s = 1; s < plan.subgraphs.size(); ++s) EXPECT_FALSE(plan.subgraphs[s].planned) << s;
}

TEST(HandoffRule, LoopWhoseFabricPartsPayForThemselvesIsInterpreted) {
  // A fabric ten times faster per operation with free hand-offs and CPU
  // steps that cost something: interpreting saves time, so it stays.
  FabricTarget fast = withHandoffs(0, 0.1f);
  fast.handoffs->cpuStepNs = 0;
  const Plan plan = partition(testing::mixedLoop(), fast);
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::WHILE});
  EXPECT_EQ(plan.main().steps[0].codes[0], ReasonCode::PART_UNSUPPORTED);
  EXPECT_TRUE(plan.usesFabric());
  // The same fabric with a hand-off cost above what its operations save: CPU.
  FabricTarget slowHandoff = fast;
  slowHandoff.handoffs->fabricStepNs = 100;
  EXPECT_EQ(kinds(partition(testing::mixedLoop(), slowHandoff).main()), std::vector<StepKind>{StepKind::CPU});
}

TEST(HandoffRule, ALoopTheCpuRunsAsRegisterCodeIsPricedAtRegisterCode) {
  // The fast fabric above pays for interpreting mixedLoop (f FLOAT32 [2],
  // frames on the CPU: 22.5 ns per operation). With f FLOAT32 [1] every
  // value has one element: the CPU runs the whole loop as register code,
  // 1.35 ns per operation, and that beats the interpreter's steps.
  FabricTarget fast = withHandoffs(0, 0.1f);
  fast.handoffs->cpuStepNs = 0;
  ASSERT_EQ(kinds(partition(testing::mixedLoop(), fast).main()), std::vector<StepKind>{StepKind::WHILE});
  const Plan plan = partition(testing::scalarMixedLoop(), fast);
  ASSERT_EQ(kinds(plan.main()), std::vector<StepKind>{StepKind::CPU});
  EXPECT_EQ(plan.main().steps[0].codes[0], ReasonCode::NOT_WORTH_HANDOFFS);
  // Priced like frames, the same loop would be interpreted: the figure decides.
  fast.handoffs->cpuScalarOperationNs = fast.handoffs->cpuOperationNs;
  EXPECT_EQ(kinds(partition(testing::scalarMixedLoop(), fast).main()), std::vector<StepKind>{StepKind::WHILE});
}

TEST(HandoffRule, ControlFlowTheFabricTakesWholeStaysOnTheFabric) {
  // No per-iteration hand-off there: one step for the whole loop.
  for (const Model& model : {testing::counterLoop(), testing::nestedLoops(), testing::intIf()}) {
    EXPECT_EQ(kinds(partition(model, withHandoffs(1e9)).main()), std::vector<StepKind>{StepKind::FABRIC});
  }
}

TEST(HandoffRule, DeepMixedChainsAreCostedWithoutBlowingUp) {
  const Plan plan = partition(testing::deepMixedChain(kMaxInterpretedDepth + 10), withHandoffs(1000));
  ASSERT_EQ(kinds(plan.main()).size(), plan.main().steps.size());
  EXPECT_FALSE(plan.usesFabric());
}

TEST(ReasonCodes, StringsAreStable) {
  EXPECT_EQ(toString(ReasonCode::NONE), "");
  EXPECT_EQ(toString(ReasonCode::UNSUPPORTED_OPERATION), "unsupported_operation");
  EXPECT_EQ(toString(ReasonCode::UNSUPPORTED_TYPE), "unsupported_type");
  EXPECT_EQ(toString(ReasonCode::UNKNOWN_SHAPE), "unknown_shape");
  EXPECT_EQ(toString(ReasonCode::PART_UNSUPPORTED), "part_unsupported");
  EXPECT_EQ(toString(ReasonCode::NOT_CHEAPER), "not_cheaper");
  EXPECT_EQ(toString(ReasonCode::NESTING_DEPTH), "nesting_depth");
  EXPECT_EQ(toString(ReasonCode::NOTHING_FOR_FABRIC), "nothing_for_fabric");
  EXPECT_EQ(toString(ReasonCode::NOT_WORTH_HANDOFFS), "not_worth_handoffs");
  EXPECT_EQ(toString(ReasonCode::NO_FABRIC), "no_fabric");
}

// Every operation off the fabric has a code, every one on it none.
void expectCodesMatchReasons(const Plan& plan, const std::string& what) {
  for (const SubgraphPlan& sp : plan.subgraphs) {
    for (const Step& step : sp.steps) {
      ASSERT_EQ(step.codes.size(), step.operations.size()) << what;
      for (size_t j = 0; j < step.operations.size(); ++j) {
        EXPECT_EQ(step.reasons[j].empty(), step.codes[j] == ReasonCode::NONE) << what << ": " << step.reasons[j];
      }
    }
  }
}

ReasonCode mainCode(const Plan& plan, size_t step = 0) { return plan.main().steps.at(step).codes.at(0); }

TEST(ReasonCodes, EachRuleHasItsCode) {
  EXPECT_EQ(mainCode(partition(testing::mixedModel(), standIn()), 1), ReasonCode::UNSUPPORTED_TYPE);
  EXPECT_EQ(mainCode(partition(testing::floatLoop(), standIn())), ReasonCode::NOTHING_FOR_FABRIC);
  EXPECT_EQ(mainCode(partition(testing::intIf(true), standIn())), ReasonCode::UNKNOWN_SHAPE);
  EXPECT_EQ(mainCode(partition(testing::mixedLoop(), standIn())), ReasonCode::PART_UNSUPPORTED);
  FabricTarget slow = standIn();
  slow.capabilities.whilePerformance = {1.0f, 1.0f};
  EXPECT_EQ(mainCode(partition(testing::counterLoop(), slow)), ReasonCode::NOT_CHEAPER);
  EXPECT_EQ(mainCode(partition(testing::mixedLoop(), withHandoffs(1000))), ReasonCode::NOT_WORTH_HANDOFFS);
  // An INT32 operation the stand-in refuses is an unsupported operation.
  FabricTarget refusesAll = standIn();
  refusesAll.supports = [](const Model&, uint32_t, uint32_t, std::string* why) {
    *why = "refused";
    return false;
  };
  EXPECT_EQ(mainCode(partition(testing::longChain(3), refusesAll)), ReasonCode::UNSUPPORTED_OPERATION);
  // The nesting cap: somewhere down the chain.
  const Plan deep = partition(testing::deepMixedChain(kMaxInterpretedDepth + 10), standIn());
  bool capped = false;
  for (const SubgraphPlan& sp : deep.subgraphs) {
    for (const Step& step : sp.steps) {
      for (ReasonCode code : step.codes) capped |= code == ReasonCode::NESTING_DEPTH;
    }
  }
  EXPECT_TRUE(capped);
}

TEST(ReasonCodes, EveryOperationOffTheFabricHasOneInRandomModels) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Model model = testing::randomModel(seed);
    if (!validateModel(model).isOk()) continue;
    expectCodesMatchReasons(partition(model, standIn()), "seed " + std::to_string(seed));
    expectCodesMatchReasons(partition(model, withHandoffs(1000)), "seed " + std::to_string(seed) + " hand-offs");
  }
}

TEST(PlanJson, IsValidAndNamesKindsDevicesAndCodes) {
  const Model model = testing::mixedLoop();
  const auto doc = nlohmann::json::parse(formatPlanJson(model, partition(model, standIn()), "fab"));
  EXPECT_EQ(doc["device"], "fab");
  EXPECT_EQ(doc["fabricSteps"], 2);
  EXPECT_EQ(doc["cpuSteps"], 1);
  EXPECT_EQ(doc["interpretedSteps"], 1);
  ASSERT_EQ(doc["subgraphs"].size(), 3u);
  const auto& loop = doc["subgraphs"][0]["steps"][0];
  EXPECT_EQ(loop["kind"], "while");
  EXPECT_EQ(loop["device"], "host");
  EXPECT_EQ(loop["children"]["cond"], 1);
  EXPECT_EQ(loop["children"]["body"], 2);
  EXPECT_EQ(loop["operations"][0]["type"], "WHILE");
  EXPECT_EQ(loop["operations"][0]["reasonCode"], "part_unsupported");
  const auto& body = doc["subgraphs"][2]["steps"];
  EXPECT_EQ(body[0]["kind"], "fabric");
  EXPECT_EQ(body[0]["device"], "fab");
  EXPECT_EQ(body[0]["operations"][0]["onFabric"], true);
  EXPECT_FALSE(body[0]["operations"][0].contains("reasonCode"));
  EXPECT_EQ(body[1]["kind"], "cpu");
  EXPECT_EQ(body[1]["operations"][0]["reasonCode"], "unsupported_type");
  EXPECT_EQ(body[1]["operations"][0]["reason"], "FLOAT32 on the stand-in fabric");
}

TEST(PlanJson, EveryOperationOffTheFabricHasAKnownCodeAndASentence) {
  const std::vector<std::string> known = {"unsupported_operation", "unsupported_type", "unknown_shape",
                                          "part_unsupported",      "not_cheaper",      "nesting_depth",
                                          "nothing_for_fabric",    "not_worth_handoffs", "no_fabric"};
  std::vector<Model> models = {testing::mixedModel(), testing::mixedLoop(), testing::floatLoop(),
                               testing::intIf(true), testing::deepMixedChain(kMaxInterpretedDepth + 3)};
  for (uint64_t seed = 1; seed <= 50; ++seed) models.push_back(testing::randomModel(seed));
  for (const Model& model : models) {
    if (!validateModel(model).isOk()) continue;
    for (const FabricTarget& target : {standIn(), withHandoffs(1000)}) {
      const auto doc = nlohmann::json::parse(formatPlanJson(model, partition(model, target), "fab"));
      for (const auto& sg : doc["subgraphs"]) {
        for (const auto& step : sg["steps"]) {
          for (const auto& op : step["operations"]) {
            if (op["onFabric"]) continue;
            ASSERT_TRUE(op.contains("reasonCode")) << op.dump();
            EXPECT_NE(std::find(known.begin(), known.end(), op["reasonCode"].get<std::string>()), known.end())
                << op.dump();
            EXPECT_FALSE(op["reason"].get<std::string>().empty()) << op.dump();
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace nnfab::runtime
