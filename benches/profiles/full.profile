# full.profile - every benchmark of the guides that runs here, with the
# full time budget (the tools' own run lengths): tens of minutes.
description Every runnable benchmark with the full time budget
budget full
bench stream
bench lmbench
bench dhrystone
bench whetstone
bench linpack
bench nbench
bench openssl_performance
