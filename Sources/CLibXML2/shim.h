// libxml2's SAX push parser: OSM XML is read in chunks as it is decompressed, so no document
// is ever held whole (libxml2 refuses a single buffer over 10,000,000 bytes without
// XML_PARSE_HUGE; fed in chunks it has no limit on the document's size).
//
// Debian's libxml2 is built with ICU, and its encoding.h then includes the system's ICU headers,
// whose UErrorCode clashes with the ICU that Foundation bundles (_FoundationICU) wherever a
// Swift file sees both ("'UErrorCode' has different definitions in different modules"). poiar
// never touches an encoding handler's fields (the only thing ICU adds: two trailing pointers of
// xmlCharEncodingHandler), so the ICU part of libxml2's headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
