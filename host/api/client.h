// The client API (docs/qos.md): thread-safe, for applications with many
// concurrent users of the devices.
//
// Clients. NNAPI identifies the application behind a request by its calling
// UID and applies priorities only among the models of one application. nnfab
// has no process boundary to read a UID from, so the application creates a
// Client explicitly for each identity it wants scheduled separately (an app,
// a tenant, a user session) and prepares models through it. Every Client gets
// a process-unique id (never 0; 0 is the anonymous client that callers of
// the Device interface share). Priorities order work within one client;
// across clients each fabric device shares its core fairly (round-robin
// turns), whatever the priorities.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "model/execution.h"
#include "model/model.h"
#include "model/status.h"
#include "runtime/device.h"

namespace nnfab::api {

class PreparedModel;

struct PrepareRequest {
  // LOW, MEDIUM (default) or HIGH; any other value is INVALID_ARGUMENT.
  Priority priority = Priority::MEDIUM;
  // Absolute; none = no deadline. Passed before preparation starts:
  // MISSED_DEADLINE_PERSISTENT; passed during it: MISSED_DEADLINE_TRANSIENT.
  std::optional<Clock::time_point> deadline;
  // Compilation cache (runtime/compilation_cache.h): where the prepared form
  // is kept under the caller's token; none = prepare from scratch.
  std::optional<CacheLocation> cache;
  // Its executions will be profiled (ExecuteRequest::trace):
  // PrepareOptions::profiled.
  bool profiled = false;
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  // `name` is for logs and diagnostics only; the id is the identity.
  static std::shared_ptr<Client> create(std::string name);

  uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }

  // Prepares `model` on `device` for this client.
  Result<std::shared_ptr<PreparedModel>> prepare(const Device& device, const Model& model,
                                                 const PrepareRequest& request = {});

 private:
  Client(uint64_t id, std::string name) : id_(id), name_(std::move(name)) {}
  const uint64_t id_;
  const std::string name_;
};

}  // namespace nnfab::api
