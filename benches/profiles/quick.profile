# quick.profile - a quick look at memory, CPU and OS latency, in about
# 20 seconds with the quick budget. `evmbench --demo` runs it in a loop.
#
# Format (src/profile.h): one keyword and its value a line, '#' comments.
#   description TEXT   what the profile is for
#   budget quick|full  the time budget of every benchmark (default quick)
#   bench NAME         a benchmark (guide section slug) or a kernel name,
#                      as 'evmbench run' takes them; run in this order
description Memory bandwidth, CPU and OS latency at a glance
budget quick
bench stream
bench dhrystone
bench whetstone
bench lat_mem_rd
bench lat_syscall
