internal import CLibFuzzer

/// libFuzzer's `main`, for a harness to run under the name SwiftPM links its entry point by.
///
/// SwiftPM compiles an executable target's entry point as `<Target>_main` and links it with
/// `--defsym main=<Target>_main` (so that tests can link the executable's module), which
/// leaves libFuzzer's own `main` unused. Each harness therefore defines `<Target>_main` with
/// `@_cdecl` and calls `run` from it, which is what libFuzzer's `main` does.
package enum FuzzDriver {
  /// The signature of `LLVMFuzzerTestOneInput`: the input's bytes and their count; returns 0.
  package typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

  /// Runs libFuzzer with the process's arguments, calling `body` with each input.
  ///
  /// - Returns: libFuzzer's exit code (0, or 1 with a finding written out).
  package static func run(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ body: TestOneInput
  ) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, body)
  }
}
