// GSL, the GNU Scientific Library (Debian: libgsl-dev, GPL-3.0, as resonance): its
// quasi-random sequences, for the Sobol designs of `resonance sweep` and `resonance tune`,
// and the normal and Student t distributions' quantiles, for the levels of `resonance tune`'s
// intervals and bounds.
// Reached only from ResonanceLinear. libgsl.so brings GSL's own CBLAS (libgslcblas) as a
// dependency; the executable links OpenBLAS directly, so the dynamic linker resolves every
// cblas_* symbol to OpenBLAS first.
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_qrng.h>

// GSL names its generator types as mutable globals, which Swift 6 refuses to read from
// concurrent code; the type is set once by the library and never changes.
static inline const gsl_qrng_type *resonance_qrng_sobol(void) { return gsl_qrng_sobol; }
