// What the compilation cache saves (runtime/compilation_cache.h): the time
// of preparing a model on the device from scratch (validation, partition,
// compiling its fabric programs) against preparing it again with the same
// cache token (validation, then the plan and programs loaded and checked).
// Medians over repeated preparations of models that run on the fabric.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <unistd.h>

#include "bench_groups.h"
#include "bench_models.h"
#include "models/loop_models.h"
#include "models/model_builder.h"
#include "runtime/compilation_cache.h"
#include "runtime/device.h"

namespace nnfab::bench {
namespace {

// `length` dependent ADDs of a [64] INT32 tensor and a constant: a model
// whose preparation is mostly compiling (one long fabric step).
Model addChain(uint32_t length) {
  models::SubgraphBuilder b;
  uint32_t x = b.input(OperandType::TENSOR_INT32, {64});
  const uint32_t none = b.scalar(0);
  for (uint32_t k = 0; k < length; ++k) {
    const uint32_t c = b.int32Tensor({64}, std::vector<int32_t>(64, static_cast<int32_t>(k)));
    const uint32_t y = k + 1 == length ? b.output(OperandType::TENSOR_INT32, {64}) : b.temp(OperandType::TENSOR_INT32, {64});
    b.op(OperationType::ADD, {x, c, none}, {y});
    x = y;
  }
  Model model;
  model.main = b.build();
  return model;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Median milliseconds of one preparation with these options.
Result<double> prepareMs(const Device& device, const Model& model, const PrepareOptions& options, int repeats) {
  std::vector<double> ms;
  for (int k = 0; k < repeats; ++k) {
    const auto start = std::chrono::steady_clock::now();
    auto prepared = device.prepare(model, options);
    const auto wall = std::chrono::steady_clock::now() - start;
    if (!prepared.isOk()) return std::move(prepared).takeStatus();
    ms.push_back(std::chrono::duration<double, std::milli>(wall).count());
  }
  return median(ms);
}

}  // namespace

Status runCacheGroup(const Context& context, Report& report) {
  const Device* device = findDevice(context.device);
  if (device == nullptr) return invalidArgument(fmt::format("no device {}", context.device));
  const int repeats = context.quick ? 5 : 30;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("nnfab-bench-cache-{}", ::getpid());
  std::filesystem::create_directories(dir);

  struct Case {
    std::string name;
    Model model;
  };
  const std::vector<Case> cases = {{"if_in_loop", ifInLoop(true)},
                                   {"elementwise_add_4096", elementwiseAdd(4096)},
                                   {"deep_while_chain_32", models::deepWhileChain(32)},
                                   {"add_chain_400", addChain(400)}};
  Status failed;
  for (size_t i = 0; i < cases.size() && failed.isOk(); ++i) {
    const Case& c = cases[i];
    context.tell(fmt::format("preparing {} on {}: {} times from scratch, {} times from the cache", c.name,
                             context.device, repeats, repeats));
    PrepareOptions cold;
    PrepareOptions cached;
    cached.cache = CacheLocation{dir.string(), {}};
    cached.cache->token[0] = static_cast<uint8_t>(i + 1);
    // The first cached preparation stores the entry; the measured ones load it.
    auto stored = device->prepare(c.model, cached);
    if (!stored.isOk()) {
      failed = std::move(stored).takeStatus();
      break;
    }
    const runtime::CacheCounters before = runtime::cacheCounters();
    auto coldMs = prepareMs(*device, c.model, cold, repeats);
    auto cachedMs = prepareMs(*device, c.model, cached, repeats);
    if (!coldMs.isOk() || !cachedMs.isOk()) {
      failed = coldMs.isOk() ? std::move(cachedMs).takeStatus() : std::move(coldMs).takeStatus();
      break;
    }
    const uint64_t loads = runtime::cacheCounters().loaded - before.loaded;
    if (loads != static_cast<uint64_t>(repeats)) {
      failed = generalFailure(fmt::format("{}: {} of {} cached preparations loaded the entry", c.name, loads, repeats));
      break;
    }
    const nlohmann::ordered_json params = {{"model", c.name}, {"repeats", repeats}};
    report.add("cache." + c.name + ".prepare_ms", "ms", *coldMs, "median preparation from scratch").with(params);
    report.add("cache." + c.name + ".cached_prepare_ms", "ms", *cachedMs,
               "median preparation with the entry of the same token loaded")
        .with(params);
    report.add("cache." + c.name + ".speedup", "x", *coldMs / *cachedMs, "from scratch / from the cache")
        .with(params);
  }
  std::filesystem::remove_all(dir);
  return failed;
}

}  // namespace nnfab::bench
