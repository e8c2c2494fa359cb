/*
 * The physical limit of the Health import's parse, for bench/ingest.sh: libxml2's SAX2 push
 * parser over a file with callbacks that do nothing but count elements, set up as resonance's
 * XMLPushParser sets it up (XML_PARSE_NONET | XML_PARSE_NOENT, libxml2's size limits on, 1 MiB
 * chunks read with read(2)). Whatever resonance ingest does beyond this is its own work.
 *
 *   sax-floor FILE     prints "elements N" and exits 0; 1 when the file does not parse
 *
 * Built by the bench: cc -O2 bench/sax_floor.c $(xml2-config --cflags --libs).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>

static unsigned long long elements;

static void start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                          const xmlChar *uri, int namespaces_count, const xmlChar **namespaces,
                          int attributes_count, int defaulted, const xmlChar **attributes) {
  (void)ctx, (void)localname, (void)prefix, (void)uri, (void)namespaces_count;
  (void)namespaces, (void)attributes_count, (void)defaulted, (void)attributes;
  elements++;
}

static void end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                        const xmlChar *uri) {
  (void)ctx, (void)localname, (void)prefix, (void)uri;
}

static void characters(void *ctx, const xmlChar *text, int length) {
  (void)ctx, (void)text, (void)length;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 64;
  }
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) {
    perror(argv[1]);
    return 66;
  }
  xmlSAXHandler handler;
  memset(&handler, 0, sizeof handler);
  handler.initialized = XML_SAX2_MAGIC;
  handler.startElementNs = start_element;
  handler.endElementNs = end_element;
  handler.characters = characters;
  xmlParserCtxtPtr context = xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL);
  if (context == NULL) return 1;
  xmlCtxtUseOptions(context, XML_PARSE_NONET | XML_PARSE_NOENT);
  static char buffer[1 << 20];
  ssize_t n;
  int status = 0;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) {
    if (xmlParseChunk(context, buffer, (int)n, 0) != 0) {
      status = 1;
      break;
    }
  }
  if (status == 0 && (n < 0 || xmlParseChunk(context, NULL, 0, 1) != 0)) status = 1;
  if (status != 0 || !context->wellFormed) {
    const xmlError *error = xmlCtxtGetLastError(context);
    fprintf(stderr, "%s:%d: %s", argv[1], error ? error->line : 0,
            error && error->message ? error->message : "does not parse\n");
    status = 1;
  }
  xmlFreeParserCtxt(context);
  close(fd);
  if (status == 0) printf("elements %llu\n", elements);
  return status;
}
