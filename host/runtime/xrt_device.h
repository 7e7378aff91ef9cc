// The XRT devices (docs/xrt.md, docs/xrt-emu.md):
//   xrt:N    card N as XRT numbers them, running the xclbin given with
//            --xclbin or NNFAB_XCLBIN;
//   xrt-emu  the same backend, unmodified, on XRT's hw_emu shim, whose
//            device process is nnfab's Verilated core (sim/xrt_emu): the
//            runtime prepares XRT's environment and builds the xclbin.
// Both are FabricDevices over backends/xrt_backend.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/xrt_backend.h"
#include "model/status.h"
#include "runtime/device.h"

namespace nnfab {

// The xclbin `xrt:N` loads (`nnfab run --xclbin`); NNFAB_XCLBIN otherwise.
void setXrtXclbin(const std::string& path);

// Whether `name` is "xrt" or "xrt:N" (N decimal); *index = N (0 for "xrt").
bool parseXrtDeviceName(const std::string& name, unsigned* index);

// Opens card N now (checks the xclbin, loads it, checks the core's ID and
// ISA version) and returns its device; the same device for later calls.
// INVALID_ARGUMENT (a usage problem: no/foreign xclbin) or
// DEVICE_UNAVAILABLE (no such card, XRT failing) with the reason.
Result<const Device*> openXrtDevice(unsigned index);

// Card N's backend alone, opened and checked as openXrtDevice does, for
// `nnfab bench --device xrt[:N]` (which drives the core through CoreDriver
// and needs the backend, not a runtime device). A second backend on a card
// the runtime's device already holds is refused by XRT, so the two are not
// used in one process.
Result<std::unique_ptr<backends::XrtBackend>> openXrtCardBackend(unsigned index);

// One row of `nnfab devices` per card XRT sees; none (and no error) when
// XRT sees none.
struct XrtCardRow {
  std::string name;         // "xrt:N"
  std::string description;  // card name and loaded xclbin UUID
};
std::vector<XrtCardRow> xrtCardRows();

#ifdef NNFAB_HAS_XRT_EMU_DEVICE
// The emulation backend alone (prepares XRT's hw_emu environment, builds
// the emulation xclbin, opens it): what the xrt-emu device runs on, for
// tests that drive the core through CoreDriver. Once per process (XRT
// picks its shim once).
Result<std::unique_ptr<backends::XrtBackend>> openXrtEmuBackend();

const Device& xrtEmuDevice();
// Prepares XRT's hw_emu environment, builds the emulation xclbin and opens
// the backend now, so that `--device xrt-emu` reports a failure before
// running rather than as an execution status. Idempotent.
Status openXrtEmu();
#endif

}  // namespace nnfab
