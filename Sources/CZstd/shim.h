// libzstd (Debian: libzstd-dev), Zstandard compression, for the pages of the Parquet files
// `resonance export` writes. Reached only from ResonanceIO.
#include <zstd.h>
