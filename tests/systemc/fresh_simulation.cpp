#include "fresh_simulation.h"

#include <systemc>

namespace nnfab::sim::test {

void freshSimulation() {
  // Declared in sc_simcontext.h, not documented API but stable across the
  // 2.3 series: the context new objects and sc_start use.
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

}  // namespace nnfab::sim::test
