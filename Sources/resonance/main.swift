import Foundation
import ResonanceCLI

let status = Resonance.main(
  Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
  console: StandardConsole())
exit(status.code)
