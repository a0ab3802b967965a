// `inspect`: reads a TABLE frame on stdin as `run` would (without opening any folder), prints the
// view it describes, then answers rule queries: what the helper makes of the app's bytes, so the
// tests check the wire format and the protected-name rules against this very code.
//   in:  TABLE frame, then QUERY frames (type 2): str grant path, u64 opt-outs, u32 n, n × str component
//   out: one line per entry: "entry KIND FLAGS HEX(path) [HEX(link or source)]", then "end";
//        one line per query: "guard G GROUP" (G: 0 free, 1 on the way to a protected name, 2 protected)
// Names are printed as hex: every byte is shown as it was read.
#include "helper.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(const char *text) {
  for (const unsigned char *c = (const unsigned char *)text; *c; c++) printf("%02x", *c);
  if (!*text) printf("-");
}

static void print_entries(const struct tnode *tn, char *path, size_t len) {
  for (size_t i = 0; i < tn->nkids; i++) {
    const struct tnode *kid = tn->kids[i];
    size_t n = strlen(kid->name);
    if (len + n + 2 > 8192) continue;
    path[len] = '/';
    memcpy(path + len + 1, kid->name, n + 1);
    if (kid->kind) {
      printf("entry %d %u ", kid->kind, kid->kind == ENTRY_BACKING ? kid->flags : 0);
      hex(path);
      if (kid->kind == ENTRY_LINK) {
        printf(" ");
        hex(kid->link);
      }
      if (kid->kind == ENTRY_BACKING) {
        printf(" ");
        hex(kid->grant->source);
      }
      printf("\n");
    }
    print_entries(kid, path, len + 1 + n);
    path[len] = '\0';
  }
}

static uint32_t take32(const uint8_t **at, const uint8_t *end, bool *bad) {
  uint32_t v = 0;
  if (end - *at < 4) return *bad = true, 0;
  memcpy(&v, *at, 4);
  *at += 4;
  return v;
}

static char *take_str(const uint8_t **at, const uint8_t *end, bool *bad) {
  uint32_t n = take32(at, end, bad);
  if (*bad || (uint32_t)(end - *at) < n) return *bad = true, NULL;
  char *s = strndup((const char *)*at, n);
  *at += n;
  return s;
}

int inspect_main(void) {
  uint8_t *payload;
  uint32_t len;
  if (control_read(0, &payload, &len) != 1) {
    printf("error no table\n");
    return 1;
  }
  const char *why = NULL;
  struct table *table = table_read(payload, len, NULL, -1, false, &why);
  free(payload);
  if (!table) {
    printf("error %s\n", why);
    return 0;
  }
  char path[8192] = "";
  print_entries(table->root, path, 0);
  printf("end\n");
  fflush(stdout);
  int type;
  while ((type = control_read(0, &payload, &len)) == 2) {
    const uint8_t *at = payload, *end = payload + len;
    bool bad = false;
    char *grant_path = take_str(&at, end, &bad);
    uint64_t optouts = 0;
    if (!bad && end - at >= 8) {
      memcpy(&optouts, at, 8);
      at += 8;
    } else bad = true;
    uint32_t n = take32(&at, end, &bad);
    char **rel = calloc(n ? n : 1, sizeof *rel);
    for (uint32_t i = 0; i < n && !bad; i++) rel[i] = take_str(&at, end, &bad);
    if (bad || !grant_path || grant_path[0] != '/') {
      printf("error a malformed query\n");
    } else {
      // The grant's own path as components, as table.c keeps them.
      char *copy = strdup(grant_path), *abs[512];
      size_t nabs = 0;
      for (char *save = NULL, *part = strtok_r(copy, "/", &save); part && nabs < 512; part = strtok_r(NULL, "/", &save)) abs[nabs++] = part;
      struct grant grant = { .optouts = optouts, .flags = ENTRY_WRITABLE | ENTRY_PROTECT };
      unsigned group = 0;
      enum guard g = rules_match(table, &grant, abs, nabs, rel, n, &group);
      printf("guard %d %s\n", (int)g, g ? table->groups[group] : "-");
      free(copy);
    }
    for (uint32_t i = 0; i < n; i++) free(rel[i]);
    free(rel);
    free(grant_path);
    free(payload);
    fflush(stdout);
  }
  table_free(table);
  return 0;
}
