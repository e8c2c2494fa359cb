import FuzzSupport

/// An RR-interval file (`RRFileReader`), read as `resonance hrv FILE` reads one.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  FuzzInput.readRR(data, size)
  return 0
}

/// libFuzzer's `main`, under the name SwiftPM links this executable's entry point by.
@_cdecl("FuzzRRFile_main")
public func entryPoint(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  FuzzDriver.run(argc, argv, testOneInput)
}
