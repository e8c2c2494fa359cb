// libcmark-gfm (Debian: libcmark-gfm-dev and libcmark-gfm-extensions-dev), GitHub's CommonMark
// renderer and its table extension, for the report's HTML pages. Reached only from ResonanceIO.
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
