// libarchive (Debian: libarchive-dev): zip and gzip streams, read and write.
// Reached only from ResonanceIO.
#include <archive.h>
#include <archive_entry.h>
