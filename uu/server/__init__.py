"""The server side of `uu app`: standalone Voila on the shipped notebook (`app`), its configuration
(`voila_config`), seats and caps (`seats`), forked kernels (`forkkernel`), per-page and per-message speed-ups
(`serverspeed`), the kernels' logs (`kernellog`), a server process for tests and benchmarks (`appserver`), and
every change uu makes to a third-party library in one place (`patches`)."""
