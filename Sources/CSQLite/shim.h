// SQLite 3 (Debian: libsqlite3-dev). Reached only from ResonanceStore/SQLite.
#include <sqlite3.h>

// sqlite3_config is variadic, so Swift cannot call it; this wrapper turns off SQLite's memory
// statistics, which otherwise take a global mutex on every allocation and free. It must run
// before SQLite initialises (before the first connection opens); later it returns SQLITE_MISUSE.
static inline int resonance_sqlite3_disable_memstatus(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// Debian builds SQLite with URI filenames on by default, so a path starting with `file:` would
// be read as a URI (`file::memory:` a throw-away database, `?mode=ro` an option). This turns
// that off process-wide, with the same before-the-first-open rule as above.
static inline int resonance_sqlite3_disable_uri(void) {
  return sqlite3_config(SQLITE_CONFIG_URI, 0);
}
