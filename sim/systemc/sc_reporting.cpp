#include "sc_reporting.h"

#include <iostream>

#include <systemc>

namespace nnfab::sim {

namespace {
void toStderr(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if ((actions & sc_core::SC_DISPLAY) != 0) {
    std::cerr << sc_core::sc_report_compose_message(report) << std::endl;
  }
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

void routeSystemCReportsToStderr() {
  sc_core::sc_report_handler::set_handler(toStderr);
  // sc_stop() reports an SC_INFO of this type ("Simulation stopped by user").
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

}  // namespace nnfab::sim
