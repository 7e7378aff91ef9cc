# Implementation constraints of one nnfab_core compute unit (docs/deploy.md).
# Scoped: constraints/nnfab_core_impl.tcl reads it with `read_xdc -cells <cu>`
# for every nnfab_core instance, so the names below are relative to the core.
#
# Clock. None is created here: ap_clk is the platform's kernel clock, which
# v++ sets from kernel_frequency (300 MHz, bitstreams/*.cfg). A create_clock
# on ap_clk would replace the platform's generated clock and hide its real
# relationship to the memory and PCIe clocks.
#
# Reset. The core has no reset synchroniser: ap_rst_n is synchronous to ap_clk
# (a Vitis requirement the platform meets) and rtl/nnfab_core.sv only inverts
# it. A false path on it would therefore hide a real timing path, so there is
# none. The reset's fan-out is high (every control register); replication
# of the reset is left to phys_opt_design, which sees it as a timing-critical
# net if it is one.
#
# Placement. Each compute unit is assigned to an SLR by `slr=` in the v++
# link configuration (the SLR that holds its memory controller or the HBM
# switch); Vitis turns that into membership of the platform's SLR pblock.
# Here the core is only kept whole: its own cells are grouped so the placer
# does not split the sequencer and the tensor unit across an SLR crossing
# inside one cycle.
set_property USER_SLR_ASSIGNMENT nnfab_core [get_cells -quiet *]
