#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in its own build folder (the normal .build is left
# alone). docs/robustness.md, "Sanitizers".
#
#   bash fuzz/sanitizers.sh address     # AddressSanitizer + LeakSanitizer, into .build-asan
#   bash fuzz/sanitizers.sh undefined   # UndefinedBehaviorSanitizer on the C code, into .build-ubsan
#
# Extra arguments go to `swift test` (e.g. --filter PBFImportTests). Exits non-zero when a
# test fails or the sanitizer reports an error.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}; shift || true
case $kind in
  address)
    # Leaks in the toolchain's libraries and test helpers are listed in fuzz/lsan.supp.
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
    export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0}
    flags=(--sanitize=address --scratch-path .build-asan)
    ;;
  undefined)
    # swiftc refuses -sanitize=undefined on Linux ("unsupported option '-sanitize=undefined' for
    # target 'x86_64-unknown-linux-gnu'"); Swift code checks overflow, bounds and nil itself in
    # every build. UBSan is applied to the C that poiar compiles: the inline helpers of the
    # system-library shims (Sources/C*/shim.h), and it stops at the first report.
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    flags=(--scratch-path .build-ubsan -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
           -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined)
    ;;
  *) echo "usage: bash fuzz/sanitizers.sh address|undefined [swift test arguments]" >&2; exit 2 ;;
esac
# Swift's crash backtracer reads memory that AddressSanitizer guards: leave crashes to the sanitizer.
export SWIFT_BACKTRACE=enable=no
swift build --build-tests "${flags[@]}"
swift test "${flags[@]}" "$@"
