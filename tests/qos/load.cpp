#include "qos/load.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "qos/qos_test_util.h"
#include "runtime/cpu_device.h"
#include "runtime/runtime_models.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::qos {
namespace {

using testing::int32s;

struct Job {
  size_t model = 0;
  std::vector<TensorValue> inputs;
  ExecutionResult expected;
};

// Fabric-whole loops, host-interpreted loops with CPU steps, straight-line mixes.
std::vector<Model> loadModels() {
  return {testing::counterLoop(true), testing::mixedLoop(), testing::mixedModel()};
}

std::vector<Job> makeJobs(const std::vector<Model>& models) {
  std::vector<Job> jobs;
  for (int32_t k = 0; k < 48; ++k) jobs.push_back({0, {int32s({1}, {k * 61})}, {}});
  for (int32_t k = 0; k < 12; ++k) jobs.push_back({1, {int32s({1}, {k}), testing::floats({2}, {1.5f, -k * 1.0f})}, {}});
  for (int32_t k = 0; k < 12; ++k) {
    jobs.push_back({2, {int32s({3}, {k, -k, k * k}), testing::floats({3}, {k * 0.5f, 1, -2})}, {}});
  }
  for (Job& job : jobs) {
    auto prepared = cpuDevice().prepare(models[job.model], {});
    job.expected = prepared.value()->execute(job.inputs, {});
  }
  return jobs;
}

bool sameResult(const ExecutionResult& want, const ExecutionResult& got) {
  if (want.status.code() != got.status.code()) return false;
  if (want.outputs.size() != got.outputs.size()) return false;
  for (size_t i = 0; i < want.outputs.size(); ++i) {
    if (want.outputs[i].dimensions != got.outputs[i].dimensions || want.outputs[i].data != got.outputs[i].data) {
      return false;
    }
  }
  return true;
}

}  // namespace

LoadReport runLoad(const Device& device, const LoadOptions& options) {
  const std::vector<Model> models = loadModels();
  const std::vector<Job> jobs = makeJobs(models);
  // Device first-use costs (the backend's memory image is mapped on the
  // first allocation, which under ThreadSanitizer also maps its shadow and
  // takes seconds) are not part of the load: one untimed run of each model.
  for (size_t m = 0; m < models.size(); ++m) {
    const auto first = std::find_if(jobs.begin(), jobs.end(), [m](const Job& j) { return j.model == m; });
    auto warm = device.prepare(models[m], {});
    if (warm.isOk() && first != jobs.end()) (void)warm.value()->execute(first->inputs, {});
  }
  LoadReport report;
  std::vector<std::atomic<uint32_t>> calls(options.executions);
  std::atomic<uint64_t> completed{0}, ok{0}, mismatches{0};
  std::mutex mismatchMutex;
  const auto start = std::chrono::steady_clock::now();

  std::vector<std::thread> submitters;
  for (uint32_t c = 0; c < options.clients; ++c) {
    submitters.emplace_back([&, c] {
      auto client = api::Client::create("load-" + std::to_string(c));
      // [model][priority]
      std::vector<std::vector<std::shared_ptr<api::PreparedModel>>> prepared(models.size());
      for (size_t m = 0; m < models.size(); ++m) {
        for (Priority p : {Priority::LOW, Priority::MEDIUM, Priority::HIGH}) {
          prepared[m].push_back(prepareOrDie(*client, device, models[m], p));
        }
      }
      std::mt19937_64 random(options.seed * 1000003 + c);
      std::mutex mutex;
      std::condition_variable slotFree;
      uint32_t inFlight = 0;
      for (uint64_t index = c; index < options.executions; index += options.clients) {
        const Job& job = jobs[random() % jobs.size()];
        const auto& model = prepared[job.model][random() % 3];
        {
          std::unique_lock<std::mutex> lock(mutex);
          slotFree.wait(lock, [&] { return inFlight < options.inFlightPerClient; });
          ++inFlight;
        }
        model->executeAsync(job.inputs, {}, [&, index, job = &job](const ExecutionResult& result) {
          if (calls[index].fetch_add(1) == 0) ++completed;
          if (result.status.isOk()) ++ok;
          if (!sameResult(job->expected, result)) {
            if (mismatches.fetch_add(1) == 0) {
              std::lock_guard<std::mutex> lock(mismatchMutex);
              report.firstMismatch = "execution " + std::to_string(index) + ": " +
                                     std::string(toString(result.status.code())) + " " + result.status.message();
            }
          }
          std::lock_guard<std::mutex> lock(mutex);
          --inFlight;
          slotFree.notify_one();
        });
      }
      std::unique_lock<std::mutex> lock(mutex);
      slotFree.wait(lock, [&] { return inFlight == 0; });
    });
  }
  for (auto& t : submitters) t.join();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report.submitted = options.executions;
  report.completed = completed.load();
  report.ok = ok.load();
  report.mismatches = mismatches.load();
  for (auto& n : calls) {
    if (n.load() == 0) ++report.lost;
    if (n.load() > 1) ++report.completedTwice;
  }
  return report;
}

}  // namespace nnfab::qos
