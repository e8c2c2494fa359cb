// swift-tools-version: 6.0
// The resonance package: an offline research CLI over Apple Health and listening history.
// DESIGN.md's module table is the source of truth for which target may import which.
import Foundation
import PackageDescription

// The sweep kernel (ResonanceTuning) is eight-lane SIMD arithmetic: release builds compile it
// for the building machine's processor, as `-march=native` would, since resonance is built
// where it runs, and with fused multiply-adds where that processor has them (RESONANCE_FMA;
// without them each would be a libm call). RESONANCE_PORTABLE=1 builds it for the
// architecture's baseline instead, for a binary meant for other machines
// (docs/performance.md).
let portable = Context.environment["RESONANCE_PORTABLE"] != nil
let hardwareFMA: Bool = {
  #if arch(arm64)
    return true
  #else
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return false
    }
    let flags = info.split(separator: "\n").first { $0.hasPrefix("flags") }
    return flags?.split(separator: " ").contains("fma") ?? false
  #endif
}()
let kernelSettings: [SwiftSetting] =
  portable
  ? []
  : [.unsafeFlags(["-target-cpu", "native"], .when(configuration: .release))]
    + (hardwareFMA ? [.define("RESONANCE_FMA", .when(configuration: .release))] : [])

// Release builds of the modules whose code runs per element of an export skip Swift's run-time
// exclusivity checks (see the targets below).
let perElementSettings: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
  name: "resonance",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "resonance", targets: ["resonance"])
  ],
  targets: [
    // C libraries from Debian's packages, one module map and shim each.
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CArchive", pkgConfig: "libarchive",
      providers: [.apt(["libarchive-dev"])]),
    .systemLibrary(
      name: "CXML", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(
      name: "CFFT", pkgConfig: "fftw3",
      providers: [.apt(["libfftw3-dev"])]),
    .systemLibrary(
      name: "CBLAS", pkgConfig: "openblas",
      providers: [.apt(["libopenblas-dev"])]),
    .systemLibrary(
      name: "CGSL",
      providers: [.apt(["libgsl-dev"])]),
    .systemLibrary(
      name: "CCmark", pkgConfig: "libcmark-gfm",
      providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
    .systemLibrary(
      name: "CZstd", pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"])]),

    .target(name: "ResonanceModel"),
    // The readers' per-element state lives in class properties, and the run-time exclusivity
    // check on each access was ~3% of the Health import's wall time (docs/performance.md);
    // the compile-time checks still apply, and debug builds (the tests) keep the run-time ones.
    // IO's XML event recorder, called per element on the parsing thread, is the same case.
    .target(
      name: "ResonanceIO",
      dependencies: ["ResonanceModel", "CCrypto", "CArchive", "CXML", "CCmark", "CZstd"],
      swiftSettings: perElementSettings),
    .target(
      name: "ResonanceIngest", dependencies: ["ResonanceModel", "ResonanceIO"],
      swiftSettings: perElementSettings),
    // The Health writer's per-record path is the same case on the writing thread.
    .target(
      name: "ResonanceStore", dependencies: ["ResonanceModel", "CSQLite"],
      swiftSettings: perElementSettings),
    .target(name: "ResonanceLinear", dependencies: ["CFFT", "CBLAS", "CGSL"]),
    .target(name: "ResonanceBrain", dependencies: ["ResonanceModel", "ResonanceLinear"]),
    .target(
      name: "ResonanceSynth", dependencies: ["ResonanceModel", "ResonanceIO", "ResonanceBrain"]),
    .target(
      name: "ResonanceTuning",
      dependencies: ["ResonanceModel", "ResonanceBrain", "ResonanceLinear"],
      swiftSettings: kernelSettings),
    .target(name: "ResonanceReports", dependencies: ["ResonanceModel", "ResonanceIO"]),
    // The use cases: the only target that wires Store, Brain, Tuning and Reports together.
    .target(
      name: "ResonanceStages",
      dependencies: [
        "ResonanceModel", "ResonanceIO", "ResonanceIngest", "ResonanceStore", "ResonanceBrain",
        "ResonanceSynth", "ResonanceTuning", "ResonanceReports",
      ]),
    // The commands: parsing, help, progress drawing and exit codes over one stage each.
    .target(name: "ResonanceCLI", dependencies: ["ResonanceStages", "ResonanceModel"]),
    .executableTarget(name: "resonance", dependencies: ["ResonanceCLI"]),

    .testTarget(name: "ResonanceModelTests", dependencies: ["ResonanceModel"]),
    .testTarget(name: "ResonanceIOTests", dependencies: ["ResonanceIO"]),
    .testTarget(name: "ResonanceStoreTests", dependencies: ["ResonanceStore"]),
    .testTarget(name: "ResonanceIngestTests", dependencies: ["ResonanceIngest", "ResonanceIO"]),
    .testTarget(name: "ResonanceLinearTests", dependencies: ["ResonanceLinear"]),
    .testTarget(name: "ResonanceBrainTests", dependencies: ["ResonanceBrain"]),
    .testTarget(
      name: "ResonanceTuningTests",
      dependencies: ["ResonanceTuning", "ResonanceBrain", "ResonanceModel", "ResonanceLinear"]),
    .testTarget(
      name: "ResonanceSynthTests",
      dependencies: [
        "ResonanceSynth", "ResonanceBrain", "ResonanceIngest", "ResonanceIO", "ResonanceTuning",
      ]),
    .testTarget(
      name: "ResonanceReportsTests", dependencies: ["ResonanceReports"], exclude: ["Golden"]),
    .testTarget(
      name: "ResonanceStagesTests",
      dependencies: ["ResonanceStages", "ResonanceStore", "ResonanceModel", "ResonanceIngest"]),
    .testTarget(
      name: "ResonanceCLITests",
      dependencies: [
        "ResonanceCLI", "ResonanceStages", "ResonanceStore", "ResonanceBrain", "ResonanceTuning",
        "resonance",
      ],
      exclude: ["Golden"]),
    // Runs only under `make conformance`, over the real files in ../shared/fixtures.
    .testTarget(
      name: "ConformanceTests", dependencies: ["ResonanceIO", "ResonanceCLI", "ResonanceStore"]),
  ],
  swiftLanguageModes: [.v6]
)

// Fuzzing (`make fuzz`, docs/reliability.md): a libFuzzer harness per reader, `Fuzz/<Name>/`,
// each an executable whose one file defines `LLVMFuzzerTestOneInput` and runs libFuzzer's
// driver as its entry point. They exist only when RESONANCE_FUZZ is set, and are built with
// `-sanitize=fuzzer,address` in a scratch path of their own, so `swift build` and `swift test`
// never see them.
if Context.environment["RESONANCE_FUZZ"] != nil {
  let harnesses = [
    "HealthXML", "PlayActivity", "AppleMusicHistory", "LibraryTracks", "SpotifyExtended",
    "SpotifyAccount", "MusicLibrary", "LastFM", "ListenBrainz", "DecisionLog", "WatchTrace",
    "MacContext", "Mood", "Breathing", "RRFile", "ArchiveFile", "ArchivePipe", "ReportText",
  ]
  package.targets += [
    // libFuzzer's driver, declared (the toolchain's clang runtime has no header for it).
    .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: ["CLibFuzzer", "ResonanceModel", "ResonanceIO", "ResonanceIngest"],
      path: "Fuzz/FuzzSupport"),
  ]
  package.targets += harnesses.map { name in
    .executableTarget(
      name: "Fuzz\(name)",
      dependencies: ["FuzzSupport", "ResonanceModel"]
        + (name == "ReportText" ? ["ResonanceIO", "ResonanceReports"] : []),
      path: "Fuzz/\(name)",
      // The file has no top-level code: its entry point is the `@_cdecl` function.
      swiftSettings: [.unsafeFlags(["-parse-as-library"])])
  }
}
