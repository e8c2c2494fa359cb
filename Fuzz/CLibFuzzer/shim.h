// libFuzzer's driver, for the fuzz harnesses (Fuzz/): linked by `-sanitize=fuzzer` from the
// Swift toolchain's clang runtime (libclang_rt.fuzzer), which has no header of its own for it.
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer as its own `main` would, calling `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));
