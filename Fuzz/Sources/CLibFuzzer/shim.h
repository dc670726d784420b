// libFuzzer's driver entry point, declared here because the toolchain ships no header for it.
//
// Why: SwiftPM links an executable target with `main` renamed to the module's own entry point, so
// libFuzzer's `main` (FuzzerMain.o) never runs; the fuzz executable's main.swift calls the driver
// itself, with the callback that runs one input. Nothing is linked by this module: the symbol comes
// from the libFuzzer runtime that `-sanitize=fuzzer` links in.
#ifndef LINKHOST_CLIBFUZZER_SHIM_H
#define LINKHOST_CLIBFUZZER_SHIM_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
