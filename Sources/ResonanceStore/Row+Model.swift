import ResonanceModel

/// The Model values that several queries read out of a row the same way.
extension Row {
  /// The instant in column `ms` (UTC milliseconds) with the UTC offset in seconds in column
  /// `offset`; a NULL reads as 0.
  func timestamp(_ ms: String, offset: String) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: int64(ms) ?? 0, utcOffsetSeconds: Int32(int(offset)))
  }

  /// The instant in column `ms` with the UTC offset in column `offset`, both found once
  /// (`Statement.column(_:)`); a NULL reads as 0.
  func timestamp(_ ms: Column, offset: Column) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: int64(ms) ?? 0, utcOffsetSeconds: Int32(int(offset)))
  }

  /// The value of a closed set stored as text in column `name`.
  ///
  /// - Throws: `StoreError` when the text is none of the set's (a store edited by hand);
  ///   `Statement.fetch` adds the store's path.
  func decoded<Value: RawRepresentable>(_ type: Value.Type, _ name: String)
    throws(StoreError) -> Value where Value.RawValue == String
  {
    guard let value = Value(rawValue: string(name)) else {
      throw StoreError(.sqlite(code: 19), message: "unexpected \(Value.self) '\(string(name))'")
    }
    return value
  }
}
