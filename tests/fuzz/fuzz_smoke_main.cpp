// Runs the fuzz target without libFuzzer (regular builds): every seed file
// given on the command line, then bounded random mutations of them. It is a
// smoke test that the target and its seeds work; the real fuzzing runs under
// the `fuzz` preset (docs/testing.md).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  std::mt19937_64 random(12345);  // fixed: a failure must reproduce
  // --random N: N byte strings of 2..512 random bytes, for targets whose
  // input is not a file format (the differential target).
  if (argc == 3 && std::string(argv[1]) == "--random") {
    const long count = std::strtol(argv[2], nullptr, 10);
    for (long r = 0; r < count; ++r) {
      std::string bytes(2 + random() % 511, '\0');
      for (char& b : bytes) b = static_cast<char>(random());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("fuzz smoke: %ld random inputs, no finding\n", count);
    return 0;
  }
  std::vector<std::string> seeds;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    seeds.push_back(text.str());
  }
  if (seeds.empty()) {
    std::fprintf(stderr, "usage: %s SEED...\n", argv[0]);
    return 2;
  }
  size_t runs = 0;
  for (const std::string& seed : seeds) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(seed.data()), seed.size());
    ++runs;
    for (int m = 0; m < 300; ++m) {
      std::string mutated = seed;
      const int edits = 1 + static_cast<int>(random() % 8);
      for (int e = 0; e < edits && !mutated.empty(); ++e) {
        const size_t at = random() % mutated.size();
        switch (random() % 4) {
          case 0: mutated[at] = static_cast<char>(random()); break;          // flip a byte
          case 1: mutated.erase(at, 1 + random() % 16); break;               // cut
          case 2: mutated.insert(at, mutated.substr(random() % mutated.size(), 1 + random() % 32)); break;
          case 3: mutated[at] = "{}[],:\"0-9etn"[random() % 13]; break;      // JSON-ish byte
        }
      }
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(mutated.data()), mutated.size());
      ++runs;
    }
  }
  std::printf("fuzz smoke: %zu inputs, no crash\n", runs);
  return 0;
}
