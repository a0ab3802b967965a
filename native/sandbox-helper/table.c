// The plan table: the view's fixed part (synthetic folders, links, backings) as a tree of path
// components, the protected-name rules, and their matching. Built from the app's TABLE frame
// (control.c); a backing folder is opened here, once, without following any symlink, and must be
// the very folder the app checked (device and inode), or the whole table is refused.
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct tnode *tnode_child(const struct tnode *parent, const char *name) {
  size_t lo = 0, hi = parent->nkids;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(parent->kids[mid]->name, name);
    if (c == 0) return parent->kids[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

struct tnode *tnode_at(const struct tnode *root, char *const *parts, size_t nparts) {
  const struct tnode *at = root;
  for (size_t i = 0; i < nparts && at; i++) at = tnode_child(at, parts[i]);
  return (struct tnode *)at;
}

/** The child named `name` (made, in sorted place, when missing). */
static struct tnode *tnode_ensure(struct tnode *parent, const char *name) {
  size_t lo = 0, hi = parent->nkids;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(parent->kids[mid]->name, name);
    if (c == 0) return parent->kids[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  struct tnode *kid = calloc(1, sizeof *kid);
  struct tnode **kids = realloc(parent->kids, (parent->nkids + 1) * sizeof *kids);
  if (!kid || !kids) fail("out of memory");
  kid->name = strdup(name);
  if (!kid->name) fail("out of memory");
  kid->parent = parent;
  memmove(kids + lo + 1, kids + lo, (parent->nkids - lo) * sizeof *kids);
  kids[lo] = kid;
  parent->kids = kids;
  parent->nkids++;
  return kid;
}

static void tnode_free(struct tnode *tn) {
  if (!tn) return;
  for (size_t i = 0; i < tn->nkids; i++) tnode_free(tn->kids[i]);
  free(tn->kids);
  free(tn->name);
  free(tn->link);
  if (tn->grant) grant_put(tn->grant);
  free(tn);
}

static void free_parts(char **parts, size_t n) {
  for (size_t i = 0; i < n; i++) free(parts[i]);
  free(parts);
}

void grant_put(struct grant *grant) {
  if (--grant->refs > 0) return;
  if (grant->fd >= 0) close(grant->fd);
  free_parts(grant->abs, grant->nabs);
  free(grant->path);
  free(grant->source);
  free(grant);
}

void table_free(struct table *table) {
  if (!table) return;
  tnode_free(table->root);
  for (size_t i = 0; i < table->nrules; i++) {
    free_parts(table->rules[i].anchor, table->rules[i].nanchor);
    free_parts(table->rules[i].parts, table->rules[i].nparts);
  }
  free(table->rules);
  free_parts(table->groups, table->ngroups);
  free(table);
}

/* ---- Reading the frame: every field bounded, every path checked before it is used. ---- */

struct reader {
  const uint8_t *at;
  const uint8_t *end;
  const char *why;
};

static bool take(struct reader *r, void *out, size_t n) {
  if (r->why) return false;
  if ((size_t)(r->end - r->at) < n) {
    r->why = "the table is cut short";
    return false;
  }
  memcpy(out, r->at, n);
  r->at += n;
  return true;
}

static uint32_t u32(struct reader *r) {
  uint32_t v = 0;
  take(r, &v, sizeof v);
  return v;
}

static uint64_t u64(struct reader *r) {
  uint64_t v = 0;
  take(r, &v, sizeof v);
  return v;
}

/** A string field: bytes without NUL, at most PATH_MAX. */
static char *str(struct reader *r) {
  uint32_t len = u32(r);
  if (r->why) return NULL;
  if (len > 4096 || (size_t)(r->end - r->at) < len) {
    r->why = "a name in the table is too long or cut short";
    return NULL;
  }
  if (memchr(r->at, '\0', len)) {
    r->why = "a name in the table holds a NUL byte";
    return NULL;
  }
  char *s = strndup((const char *)r->at, len);
  if (!s) fail("out of memory");
  r->at += len;
  return s;
}

/** Splits "a/b/c" (or "/a/b/c" when absolute) into components; refuses empty, "." and ".." ones. */
static char **split(const char *text, bool absolute, size_t *count, const char **why) {
  *count = 0;
  if (absolute) {
    if (text[0] != '/') {
      *why = "a path in the table is not absolute";
      return NULL;
    }
    text++;
  }
  size_t cap = 8;
  char **parts = malloc(cap * sizeof *parts);
  if (!parts) fail("out of memory");
  if (*text == '\0') return parts;
  for (const char *at = text;;) {
    const char *slash = strchr(at, '/');
    size_t len = slash ? (size_t)(slash - at) : strlen(at);
    if (len == 0 || (len == 1 && at[0] == '.') || (len == 2 && at[0] == '.' && at[1] == '.')) {
      free_parts(parts, *count);
      *why = "a path in the table is not normalized";
      return NULL;
    }
    if (*count == cap) {
      cap *= 2;
      char **more = realloc(parts, cap * sizeof *parts);
      if (!more) fail("out of memory");
      parts = more;
    }
    parts[(*count)++] = strndup(at, len);
    if (!slash) break;
    at = slash + 1;
  }
  return parts;
}

/** Opens a backing folder without following any symlink on its way, and checks it is the one the app saw. */
static int open_backing(const char *path, dev_t dev, ino_t ino, const char **why) {
  struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
  int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how);
  if (fd < 0) {
    *why = errno == ENOENT ? "is gone" : errno == ELOOP ? "is reached through a symlink now" : errno == ENOTDIR ? "is no longer a folder" : "could not be opened";
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_dev != dev || st.st_ino != ino) {
    close(fd);
    *why = "was replaced since it was checked";
    return -1;
  }
  return fd;
}

/** The previous table's grant for the same folder (same path, same identity), to keep it and its nodes. */
static struct grant *find_grant(const struct tnode *tn, const char *path, const char *source, dev_t dev, ino_t ino, unsigned flags) {
  if (!tn) return NULL;
  if (tn->kind == ENTRY_BACKING && tn->grant && strcmp(tn->grant->path, path) == 0 && strcmp(tn->grant->source, source) == 0 && ((tn->grant->flags ^ flags) & ENTRY_TMP) == 0 &&
      ((flags & ENTRY_TMP) || (tn->grant->dev == dev && tn->grant->ino == ino)))
    return tn->grant;
  for (size_t i = 0; i < tn->nkids; i++) {
    struct grant *found = find_grant(tn->kids[i], path, source, dev, ino, flags);
    if (found) return found;
  }
  return NULL;
}

static char *failure_text;

struct table *table_parse(const uint8_t *payload, uint32_t len, struct table *previous, int tmp_fd, const char **why) {
  return table_read(payload, len, previous, tmp_fd, true, why);
}

struct table *table_read(const uint8_t *payload, uint32_t len, struct table *previous, int tmp_fd, bool open_folders, const char **why) {
  struct reader r = { payload, payload + len, NULL };
  struct table *table = calloc(1, sizeof *table);
  if (!table) fail("out of memory");
  table->root = calloc(1, sizeof *table->root);
  table->root->name = strdup("");
  table->root->kind = ENTRY_DIR;
  table->seq = u32(&r);

  table->ngroups = u32(&r);
  if (table->ngroups > 64) r.why = "too many rule groups";
  table->groups = calloc(table->ngroups ? table->ngroups : 1, sizeof *table->groups);
  for (size_t i = 0; i < table->ngroups && !r.why; i++) table->groups[i] = str(&r);

  uint32_t nrules = r.why ? 0 : u32(&r);
  if (nrules > 4096) r.why = "too many rules";
  table->rules = calloc(nrules ? nrules : 1, sizeof *table->rules);
  for (uint32_t i = 0; i < nrules && !r.why; i++) {
    struct rule *rule = &table->rules[table->nrules];
    rule->group = u32(&r);
    char *anchor = str(&r);
    char *pattern = str(&r);
    if (!r.why && rule->group >= table->ngroups) r.why = "a rule names no group";
    if (!r.why && anchor[0]) rule->anchor = split(anchor, true, &rule->nanchor, &r.why);
    if (!r.why) rule->parts = split(pattern, false, &rule->nparts, &r.why);
    if (!r.why && rule->nparts == 0) r.why = "a rule is empty";
    while (!r.why && rule->nfixed < rule->nparts && strcmp(rule->parts[rule->nfixed], "*") != 0 && strcmp(rule->parts[rule->nfixed], "**") != 0) rule->nfixed++;
    free(anchor);
    free(pattern);
    if (!r.why) table->nrules++;
  }

  uint32_t nentries = r.why ? 0 : u32(&r);
  if (nentries > 100000) r.why = "too many entries";
  for (uint32_t i = 0; i < nentries && !r.why; i++) {
    uint8_t kind = 0;
    take(&r, &kind, 1);
    uint32_t flags = u32(&r);
    char *path = str(&r);
    char *link = kind == ENTRY_LINK ? str(&r) : NULL;
    char *source = kind == ENTRY_BACKING ? str(&r) : NULL;
    uint64_t dev = 0, ino = 0, optouts = 0;
    if (kind == ENTRY_BACKING) {
      dev = u64(&r);
      ino = u64(&r);
      optouts = u64(&r);
    }
    size_t nparts = 0;
    char **parts = r.why ? NULL : split(path, true, &nparts, &r.why);
    if (!r.why && kind != ENTRY_DIR && kind != ENTRY_LINK && kind != ENTRY_BACKING && kind != ENTRY_FILE) r.why = "an entry of an unknown kind";
    if (!r.why && nparts == 0 && kind != ENTRY_DIR) r.why = "the root of the view can only be a folder";
    struct tnode *tn = table->root;
    for (size_t k = 0; k < nparts && !r.why; k++) tn = tnode_ensure(tn, parts[k]);
    if (!r.why && tn->kind != 0 && tn != table->root) r.why = "a path is listed twice";
    if (!r.why && tn->parent && tn->parent->kind != 0 && tn->parent->kind != ENTRY_DIR && tn->parent->kind != ENTRY_BACKING) r.why = "an entry lies inside a link or a file";
    if (!r.why) {
      tn->kind = kind;
      tn->link = link;
      link = NULL;
      if (kind == ENTRY_BACKING) {
        // The host folder it passes through to: its own path, unless the table names another.
        const char *from = source && source[0] ? source : path;
        if (from[0] != '/') r.why = "a backing's folder is not an absolute path";
        struct grant *grant = r.why ? NULL : find_grant(previous ? previous->root : NULL, path, from, (dev_t)dev, (ino_t)ino, flags);
        if (r.why) {
          // Nothing to keep: the table is refused below.
        } else if (grant) {
          grant->refs++;
        } else {
          grant = calloc(1, sizeof *grant);
          if (!grant) fail("out of memory");
          grant->refs = 1;
          grant->path = strdup(path);
          grant->source = strdup(from);
          grant->abs = parts;
          grant->nabs = nparts;
          parts = NULL;
          grant->flags = flags;
          grant->optouts = optouts;
          if (!open_folders) {
            // Read for inspection only (inspect.c): nothing is opened.
            grant->fd = -1;
            grant->dev = (dev_t)dev;
            grant->ino = (ino_t)ino;
          } else if (flags & ENTRY_TMP) {
            grant->fd = tmp_fd >= 0 ? fcntl(tmp_fd, F_DUPFD_CLOEXEC, 3) : -1;
            if (grant->fd < 0) r.why = "no private /tmp to back it";
            struct stat st;
            if (grant->fd >= 0 && fstat(grant->fd, &st) == 0) {
              grant->dev = st.st_dev;
              grant->ino = st.st_ino;
            }
          } else {
            const char *problem = NULL;
            grant->dev = (dev_t)dev;
            grant->ino = (ino_t)ino;
            grant->fd = open_backing(from, (dev_t)dev, (ino_t)ino, &problem);
            if (grant->fd < 0) {
              free(failure_text);
              if (asprintf(&failure_text, "%s %s", from, problem) < 0) failure_text = NULL;
              r.why = failure_text ? failure_text : "a folder could not be opened";
            }
          }
        }
        if (grant) tn->grant = grant;
        // A kept grant's new mode and opt-outs take effect when the table is applied (view_apply),
        // under the view's lock: until then the old table, and so the old mode, is in force.
        tn->flags = flags;
        tn->optouts = optouts;
      }
    }
    free(link);
    free(source);
    free(path);
    if (parts) free_parts(parts, nparts);
  }
  if (!r.why && r.at != r.end) r.why = "the table has bytes after its end";
  if (r.why) {
    *why = r.why;
    table_free(table);
    return NULL;
  }
  return table;
}

/* ---- Matching the protected-name rules. ---- */

/** Glob over components: 2 the path matches, 1 the path is on the way to a match, 0 neither. */
static int glob(char *const *c, size_t n, size_t i, char *const *p, size_t m, size_t j) {
  if (j == m) return i == n ? 2 : 0;
  if (i == n) {
    for (size_t k = j; k < m; k++)
      if (strcmp(p[k], "**") != 0) return 1;
    return 2;
  }
  if (strcmp(p[j], "**") == 0) {
    int rest = glob(c, n, i, p, m, j + 1);
    if (rest == 2) return 2;
    int more = glob(c, n, i + 1, p, m, j);
    return more > rest ? more : rest;
  }
  // Names compared without regard to ASCII case: on a case-insensitive folder (ext4 casefold), .GIT is .git.
  if (strcmp(p[j], "*") == 0 || strcasecmp(p[j], c[i]) == 0) return glob(c, n, i + 1, p, m, j + 1);
  return 0;
}

enum guard rules_match(const struct table *table, const struct grant *grant, char *const *abs, size_t nabs, char *const *rel, size_t nrel, unsigned *group) {
  enum guard best = GUARD_NONE;
  for (size_t r = 0; r < table->nrules && best != GUARD_PROTECTED; r++) {
    const struct rule *rule = &table->rules[r];
    if (grant->optouts & (1ull << rule->group)) continue;
    int m = 0;
    if (rule->anchor) {
      // Anchored (a home folder's start-up files): the path from / runs through the anchor, and the
      // grant lies above the protected name's own folder (a grant of that folder itself, or of one
      // inside it, is the person's deliberate choice).
      size_t nfull = nabs + nrel;
      if (nrel == 0 || nabs >= rule->nanchor + rule->nfixed) continue;
      size_t common = nfull < rule->nanchor ? nfull : rule->nanchor;
      bool same = true;
      for (size_t k = 0; k < common && same; k++) same = strcasecmp(k < nabs ? abs[k] : rel[k - nabs], rule->anchor[k]) == 0;
      if (!same) continue;
      if (nfull < rule->nanchor) {
        m = 1;
      } else if (nabs <= rule->nanchor) {
        m = glob(rel + (rule->nanchor - nabs), nrel - (rule->nanchor - nabs), 0, rule->parts, rule->nparts, 0);
      } else {
        // The grant lies inside the anchor, above the protected folder: its own path spells the pattern's start.
        size_t skip = nabs - rule->nanchor;
        bool on = true;
        for (size_t k = 0; k < skip && on; k++) on = strcasecmp(abs[rule->nanchor + k], rule->parts[k]) == 0;
        if (!on) continue;
        m = glob(rel, nrel, 0, rule->parts + skip, rule->nparts - skip, 0);
      }
    } else {
      // At any depth below the grant, but not inside node_modules (what a package ships is no project's config).
      for (size_t s = 0; s < nrel && m != 2; s++) {
        int here = glob(rel + s, nrel - s, 0, rule->parts, rule->nparts, 0);
        if (here > m) m = here;
        if (strcasecmp(rel[s], "node_modules") == 0) break;
      }
    }
    if (m > (int)best) {
      best = (enum guard)m;
      if (group) *group = rule->group;
    }
  }
  return best;
}
