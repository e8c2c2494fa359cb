// OpenBLAS (Debian: libopenblas-dev, BSD-3-Clause): the CBLAS interface from <cblas.h>, plus the
// few Fortran LAPACK routines ResonanceLinear calls, declared here by hand because Debian builds
// OpenBLAS without LAPACKE and ships no LAPACK header with it. Reached only from ResonanceLinear.
#include <stddef.h>
#include <cblas.h>

// Fortran LAPACK, column-major, every argument by reference. gfortran appends one hidden
// `size_t` length per CHARACTER argument; it is declared (as LAPACK 3.11's lapack.h does) so the
// calls match the ABI exactly.

// Cholesky factorisation A = UᵀU (uplo "U") or LLᵀ (uplo "L") of a symmetric positive definite
// matrix; info > 0 when the leading minor of that order is not positive definite.
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info,
             size_t uplo_len);

// Solves A X = B with the factor from dpotrf_.
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, size_t uplo_len);

// Estimates the reciprocal 1-norm condition number of A from its Cholesky factor and ‖A‖₁.
void dpocon_(const char *uplo, const int *n, const double *a, const int *lda,
             const double *anorm, double *rcond, double *work, int *iwork, int *info,
             size_t uplo_len);
