#if canImport(Glibc)
  import Glibc
#endif

/// Runs libarchive calls that convert names under a UTF-8 character locale on this thread only.
///
/// libarchive keeps entry names in the current locale's character set and converts a zip's
/// UTF-8 names into it. A Swift process never calls `setlocale`, so it runs in the C locale
/// (ASCII) whatever `LANG` says, and so does anything started with `LC_ALL=C`: the conversion
/// of `导出.xml` fails, libarchive warns "Pathname cannot be converted from UTF-8 to current
/// locale" and drops the name, and both `archive_entry_pathname_utf8` and
/// `archive_entry_pathname` return NULL — which is why names once came out empty. Writing has
/// the mirror problem: under C, libarchive stores a non-ASCII name without the zip's UTF-8
/// flag. `hdrcharset=UTF-8` does not help (it names the archive's side of the conversion, not
/// the process's). `uselocale` switches the locale of the calling thread alone, for the length
/// of the call, so the global locale and other threads are untouched.
enum UTF8Locale {
  /// The `C.UTF-8` locale object, created once and kept for the life of the process; stored as
  /// its address because `locale_t` is a pointer type, which a global cannot hold in Swift 6.
  /// 0 when the system has no UTF-8 locale, and then calls run in the thread's own locale.
  private static let address: UInt = {
    for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] {
      if let locale = newlocale(Int32(LC_CTYPE_MASK), name, nil) {
        return UInt(bitPattern: locale)
      }
    }
    return 0
  }()

  /// Calls `body` with this thread's character locale set to UTF-8, then restores it.
  static func perform<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard let locale = locale_t(bitPattern: address) else { return try body() }
    let previous = uselocale(locale)
    defer { uselocale(previous) }
    return try body()
  }
}
