/// exp over eight lanes at once, for x ≤ 0 (the softmax's exponents): x = k·ln 2 + r with
/// |r| ≤ ln 2 / 2 (Cody and Waite's two-part ln 2), e^r by its Taylor polynomial to degree 13
/// in two Horner chains, 2^k from the exponent bits; 0 below −708. Its largest relative error
/// against glibc's `exp` over [−708, 0] is 3.2e-16 (`SweepKernelTests`). glibc's own vector
/// exp (libmvec) needs its vector calling convention, which Swift cannot call.
package enum VectorExp {
  @inline(__always)
  package static func exp(_ x: SIMD8<Double>) -> SIMD8<Double> {
    typealias V = SIMD8<Double>
    // 1.5·2⁵², added and taken away, rounds x/ln 2 to an integer kept in the low bits.
    let shifter = V(repeating: 6_755_399_441_055_744.0)
    let kd = shifter.plusProduct(x, V(repeating: 1.442_695_040_888_963_4))
    let k = kd - shifter
    let r = x.plusProduct(k, V(repeating: -6.931_471_803_691_238_164_90e-01))
      .plusProduct(k, V(repeating: -1.908_214_929_270_587_700_02e-10))
    // The polynomial as two independent Horner chains in r², even and odd terms, so that
    // the processor overlaps them: e^r = E(r²) + r·O(r²).
    let r2 = r * r
    var even = V(repeating: 1.0 / 479_001_600)  // 1/12!
    even = V(repeating: 1.0 / 3_628_800).plusProduct(even, r2)
    even = V(repeating: 1.0 / 40_320).plusProduct(even, r2)
    even = V(repeating: 1.0 / 720).plusProduct(even, r2)
    even = V(repeating: 1.0 / 24).plusProduct(even, r2)
    even = V(repeating: 0.5).plusProduct(even, r2)
    even = V(repeating: 1).plusProduct(even, r2)
    var odd = V(repeating: 1.0 / 6_227_020_800)  // 1/13!
    odd = V(repeating: 1.0 / 39_916_800).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 362_880).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 5_040).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 120).plusProduct(odd, r2)
    odd = V(repeating: 1.0 / 6).plusProduct(odd, r2)
    odd = V(repeating: 1).plusProduct(odd, r2)
    let p = even.plusProduct(odd, r)
    let bits = unsafeBitCast(kd, to: SIMD8<UInt64>.self)
    let scale = unsafeBitCast(
      (bits &+ SIMD8<UInt64>(repeating: 1023)) &<< SIMD8<UInt64>(repeating: 52), to: V.self)
    return (p * scale).replacing(with: 0, where: x .< V(repeating: -708))
  }
}

extension SIMD8 where Scalar == Double {
  /// self + a·b: one fused multiply-add when the build targets a processor that has them
  /// (Package.swift defines RESONANCE_FMA), else a multiply and an add — without hardware FMA,
  /// `addingProduct` is a call to libm's exact `fma` for every lane, 50 times slower.
  @inline(__always)
  func plusProduct(_ a: Self, _ b: Self) -> Self {
    #if RESONANCE_FMA
      addingProduct(a, b)
    #else
      self + a * b
    #endif
  }
}
