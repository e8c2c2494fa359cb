// SQLite 3 (Debian: libsqlite3-dev). Reached only from ResonanceStore/SQLite.
#include <sqlite3.h>
