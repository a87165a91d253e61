# quick.profile - the sanity check after a DDR or clock change: memory
# bandwidth and latency from L1 to DRAM, OS latency, the CPU and its clock.
# About 5.5 s on a shared 2-core x86 PC with the quick budget (16 s when
# the metric lists only filtered the output). `evmbench run --profile
# quick` runs it once, `evmbench --demo` in a loop.
#
# Format (src/data/profile.h): one keyword and its value a line, '#' comments.
#   description TEXT         what the profile is for
#   budget quick|full        the time budget of every benchmark (default quick)
#   bench NAME [METRIC...]   a benchmark (guide section slug) or a kernel name,
#                            as 'evmbench run' takes them, run in this order;
#                            with metric ids, only those are measured
#                            (sizes, cases, tool invocations), an id the
#                            benchmark cannot produce is an error
description Memory bandwidth and latency, OS latency and the CPU at a glance
budget quick
bench stream
bench bw_mem bw_mem-bcopy-16mb bw_mem-rd-16mb
# L1, L2 and DRAM: 512 B, 256 KiB (inside every supported SoC's L2) and 64 MiB
bench lat_mem_rd lat_mem_rd-stride128-sz50 lat_mem_rd-stride128-sz250k lat_mem_rd-stride128-sz64000k
bench lat_syscall lat_syscall-null
bench lat_ctx lat_ctx-2-128k
# Dhrystone also reports the measured CPU clock (cpu_clock)
bench dhrystone
