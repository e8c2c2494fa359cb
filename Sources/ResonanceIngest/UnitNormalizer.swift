/// Converts values to the units the analysis uses; the original value and unit are kept too.
///
/// | written | analysis unit | factor |
/// |---|---|---|
/// | `Cal`, `kcal` | `kcal` | 1 |
/// | `kJ` | `kcal` | 1 / 4.184 |
/// | `km` | `km` | 1 |
/// | `mi` | `km` | 1.609344 |
/// | `m` | `km` | 0.001 |
/// | `kg` | `kg` | 1 |
/// | `lb` | `kg` | 0.45359237 |
/// | `g` | `kg` | 0.001 |
/// | `degF` | `degC` | (x − 32) × 5/9 |
/// | `min`, `hr`, `s` | `min` | 1, 60, 1/60 |
/// | anything else | as written | 1 |
package enum UnitNormalizer {
  /// The value in the analysis unit, and that unit.
  package static func normalize(_ value: Double, unit: String) -> (Double, String) {
    switch unit {
    case "Cal", "kcal": return (value, "kcal")
    case "kJ": return (value / 4.184, "kcal")
    case "mi": return (value * 1.609_344, "km")
    case "m": return (value * 0.001, "km")
    case "lb": return (value * 0.453_592_37, "kg")
    case "g": return (value * 0.001, "kg")
    case "degF": return ((value - 32) * 5 / 9, "degC")
    case "hr": return (value * 60, "min")
    case "s": return (value / 60, "min")
    default: return (value, unit)
    }
  }
}
