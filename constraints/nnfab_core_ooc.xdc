# Out-of-context synthesis of the nnfab_core kernel IP (docs/deploy.md).
# Vitis synthesizes each kernel IP on its own before the link; this clock is
# what that synthesis times against: 3.333 ns = 300 MHz, isa.json's
# kernel.clock.frequency_mhz and the kernel_frequency of bitstreams/*.cfg.
# In the linked design the platform's kernel clock drives ap_clk and this file
# is not used (the IP packaging marks it out_of_context).
create_clock -period 3.333 -name ap_clk [get_ports ap_clk]
