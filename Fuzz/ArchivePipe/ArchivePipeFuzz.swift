import FuzzSupport

/// Any input as `resonance ingest` walks a pipe (`InputWalker`: zip streamed by its local headers,
/// gzip, then the readers); seeded with zips and gzip streams.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  ArchiveInput.walkPipe(data, size)
  return 0
}

/// libFuzzer's `main`, under the name SwiftPM links this executable's entry point by.
@_cdecl("FuzzArchivePipe_main")
public func entryPoint(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  FuzzDriver.run(argc, argv, testOneInput)
}
