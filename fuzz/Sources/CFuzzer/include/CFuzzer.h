#ifndef POIAR_CFUZZER_H
#define POIAR_CFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`): parses libFuzzer's
/// command-line options and calls `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
