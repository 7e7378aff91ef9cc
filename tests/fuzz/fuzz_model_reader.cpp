// libFuzzer target: the model reader, both validators, the inputs reader and
// the writer's round trip on arbitrary bytes. Nothing here may crash, hang or
// leak; a model that parses must re-parse identically from its own output.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "model/json_io.h"
#include "validation/validate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto model = nnfab::parseModel(text);
  if (!model.isOk()) return 0;
  (void)nnfab::validateModel(*model, nnfab::ValidationMode::RUNTIME);
  (void)nnfab::validateModel(*model, nnfab::ValidationMode::DRIVER);
  const std::string written = nnfab::writeModel(*model);
  auto again = nnfab::parseModel(written);
  if (!again.isOk() || nnfab::writeModel(*again) != written) std::abort();  // round trip broke
  // The same bytes as an inputs file for this model.
  (void)nnfab::parseInputs(text, *model);
  return 0;
}
