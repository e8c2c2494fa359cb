// libxml2 (Debian: libxml2-dev), for streaming SAX2 parsing. Reached only from ResonanceIO.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with Foundation's own ICU module in debug
// builds; nothing here touches the encoding handlers that need it.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
