"""The server side of `uu app`: standalone Voila on the shipped notebook (`app`), its configuration
(`voila_config`), the first page and its ticket (`shell`), seats and caps (`seats`, `pages`), what reaches a
page and what it is told when its kernel goes (`kernels`), forked kernels (`forkkernel`), per-page and
per-message speed-ups (`serverspeed`), the kernels' logs (`kernellog`), a server process for tests and
benchmarks (`appserver`), and every change uu makes to a third-party library in one place (`patches`)."""
