import FuzzSupport
import ResonanceModel

/// ListenBrainz's listens (`ListenBrainzReader`: a month of the export zip as JSON Lines, or
/// the older JSON array), read as `resonance ingest` reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzInput.read(data, size, as: .listening(.listenBrainz))
  return 0
}

/// libFuzzer's `main`, under the name SwiftPM links this executable's entry point by.
@_cdecl("FuzzListenBrainz_main")
public func entryPoint(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  FuzzDriver.run(argc, argv, testOneInput)
}
