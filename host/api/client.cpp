#include "api/client.h"

#include "api/prepared_model.h"

namespace nnfab::api {

std::shared_ptr<Client> Client::create(std::string name) {
  static std::atomic<uint64_t> next{0};
  return std::shared_ptr<Client>(new Client(++next, std::move(name)));
}

Result<std::shared_ptr<PreparedModel>> Client::prepare(const Device& device, const Model& model,
                                                       const PrepareRequest& request) {
  PrepareOptions options;
  options.priority = request.priority;
  options.deadline = request.deadline;
  options.client = id_;
  options.cache = request.cache;
  options.profiled = request.profiled;
  auto prepared = device.prepare(model, options);
  if (!prepared.isOk()) return std::move(prepared).takeStatus();
  return std::shared_ptr<PreparedModel>(
      new PreparedModel(shared_from_this(), request.priority, std::move(prepared).value()));
}

}  // namespace nnfab::api
