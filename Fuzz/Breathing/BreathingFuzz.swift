import FuzzSupport
import ResonanceModel

/// A breathing-pacer recording (`BreathingRecordingReader`), read as `resonance ingest` reads a
/// recording and as `resonance breathing FILE` reads one.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzInput.read(data, size, as: .recording(.breathing))
  FuzzInput.readBreathing(data, size)
  return 0
}

/// libFuzzer's `main`, under the name SwiftPM links this executable's entry point by.
@_cdecl("FuzzBreathing_main")
public func entryPoint(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  FuzzDriver.run(argc, argv, testOneInput)
}
