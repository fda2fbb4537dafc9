// libxml2's SAX push parser: OSM XML is read in chunks as it is decompressed, so no document
// is ever held whole (libxml2 refuses a single buffer over 10,000,000 bytes without
// XML_PARSE_HUGE; fed in chunks it has no limit on the document's size).
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
