// The view's nodes: what the kernel knows by a node id. A synthetic folder or link of the plan, or
// a file or folder inside a backing (a grant, the private /tmp). Folders hold an O_PATH descriptor
// (every name below them is opened relative to it, never by path); other files are found again by
// their folder's descriptor and name, and must still be the same inode.
#ifndef MCP_ROOTS_NODES_H
#define MCP_ROOTS_NODES_H

#include "helper.h"

#include <sys/stat.h>

struct node {
  uint64_t id;
  /** How many times the kernel was told of it (lookups minus forgets). */
  uint64_t lookups;
  /** Real nodes: the folder it was last found in (NULL for a backing's top), and its name there. */
  struct node *parent;
  char *name;
  /** Nodes that name this one as their parent: it is kept while any does. */
  unsigned children;
  /** O_PATH descriptor: folders (and a backing's top); -1 for other files. */
  int fd;
  dev_t dev;
  ino_t ino;
  /** S_IFDIR, S_IFREG, S_IFLNK, … */
  mode_t type;
  /** Real nodes: the backing they lie in. */
  struct grant *grant;
  /** Synthetic nodes: the plan path they show (NULL once the plan no longer has it), and that path. */
  struct tnode *tn;
  char *spath;
  /** Reached once by a protected name: stays refused, whatever name it is reached by later. */
  bool sticky;
  /** Folders: its inotify watch (changes made outside show at once), or -1 where none could be had. */
  int wd;
  /** Folders: its small files were handed to the kernel once (view.c read_ahead). */
  bool read_ahead;
  /** When this view last wrote the file (CLOCK_MONOTONIC ns): its own inotify events are no news. */
  uint64_t wrote_at;
  /** The record (view.c, audit): bytes written and read, and reads, since it was last reported. */
  uint64_t audit_written, audit_read;
  uint32_t audit_reads;
  bool audit_dirty;
  /** Its content before the server's first change was kept (or it is the server's own new file). */
  bool audit_kept;
  struct node *next_by_id;
  struct node *next_by_inode;
  struct node *next_by_name;
};

struct nodes;
struct nodes *nodes_new(void);
struct node *nodes_get(struct nodes *nodes, uint64_t id);
/** A real node for this inode of this backing, if the view has one. */
struct node *nodes_by_inode(struct nodes *nodes, dev_t dev, ino_t ino, const struct grant *grant);
/** The real node last found at (parent, name), if any. */
struct node *nodes_by_name(struct nodes *nodes, const struct node *parent, const char *name);
/** Makes a node (its id given by the table) and indexes it. */
struct node *nodes_add(struct nodes *nodes, struct node *node);
/** Moves a real node to (parent, name): a lookup found it there, or a rename took it there. */
void nodes_place(struct nodes *nodes, struct node *node, struct node *parent, const char *name);
/** Takes a real node out of the name index (its name is gone: unlinked, or replaced by a rename). */
void nodes_unplace(struct nodes *nodes, struct node *node);
/** The kernel forgot `count` references; frees the node (and parents it kept) when nothing holds it. */
void nodes_forget(struct nodes *nodes, struct node *node, uint64_t count);
/** Calls `each` for every node (the view's lock held). */
void nodes_each(struct nodes *nodes, void (*each)(struct node *, void *), void *arg);
/** Called for each real node just before it is freed (its watch and cached descriptors go with it). */
void nodes_on_release(struct nodes *nodes, void (*hook)(struct node *, void *), void *arg);

#endif
