// FFTW 3, double precision (Debian: libfftw3-dev; GPL, hence the project's licence).
// Reached only from ResonanceLinear.
#include <fftw3.h>
