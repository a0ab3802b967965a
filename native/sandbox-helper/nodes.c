// The node table: ids the kernel holds, indexed by id, by inode within a backing, and by the name
// they were last found under. Ids are never reused, so a stale id from the kernel finds nothing.
#include "nodes.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct nodes {
  void (*on_release)(struct node *, void *);
  void *on_release_arg;
  struct node **by_id;
  struct node **by_inode;
  struct node **by_name;
  size_t size;
  size_t count;
};

static size_t hash_id(uint64_t id) { return (size_t)(id * 0x9E3779B97F4A7C15ull >> 17); }
static size_t hash_inode(dev_t dev, ino_t ino, const struct grant *grant) {
  return hash_id((uint64_t)ino ^ ((uint64_t)dev << 32) ^ (uint64_t)(uintptr_t)grant);
}
static size_t hash_name(const struct node *parent, const char *name) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)(uintptr_t)parent;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) h = (h ^ *c) * 1099511628211ull;
  return (size_t)h;
}

struct nodes *nodes_new(void) {
  struct nodes *nodes = calloc(1, sizeof *nodes);
  if (!nodes) fail("out of memory");
  nodes->size = 1024;
  nodes->by_id = calloc(nodes->size, sizeof *nodes->by_id);
  nodes->by_inode = calloc(nodes->size, sizeof *nodes->by_inode);
  nodes->by_name = calloc(nodes->size, sizeof *nodes->by_name);
  if (!nodes->by_id || !nodes->by_inode || !nodes->by_name) fail("out of memory");
  return nodes;
}

static void link_inode(struct nodes *nodes, struct node *node) {
  if (!node->grant) return;
  size_t at = hash_inode(node->dev, node->ino, node->grant) & (nodes->size - 1);
  node->next_by_inode = nodes->by_inode[at];
  nodes->by_inode[at] = node;
}

static void link_name(struct nodes *nodes, struct node *node) {
  if (!node->parent || !node->name) return;
  size_t at = hash_name(node->parent, node->name) & (nodes->size - 1);
  node->next_by_name = nodes->by_name[at];
  nodes->by_name[at] = node;
}

static void unlink_from(struct node **head, struct node *node, size_t offset) {
  for (struct node **at = head; *at; at = (struct node **)((char *)*at + offset)) {
    if (*at == node) {
      *at = *(struct node **)((char *)node + offset);
      return;
    }
  }
}

static void grow(struct nodes *nodes) {
  size_t old = nodes->size;
  struct node **ids = nodes->by_id;
  nodes->size *= 2;
  nodes->by_id = calloc(nodes->size, sizeof *nodes->by_id);
  nodes->by_inode = (free(nodes->by_inode), calloc(nodes->size, sizeof *nodes->by_inode));
  nodes->by_name = (free(nodes->by_name), calloc(nodes->size, sizeof *nodes->by_name));
  if (!nodes->by_id || !nodes->by_inode || !nodes->by_name) fail("out of memory");
  for (size_t i = 0; i < old; i++) {
    for (struct node *node = ids[i], *next; node; node = next) {
      next = node->next_by_id;
      size_t at = hash_id(node->id) & (nodes->size - 1);
      node->next_by_id = nodes->by_id[at];
      nodes->by_id[at] = node;
      link_inode(nodes, node);
      link_name(nodes, node);
    }
  }
  free(ids);
}

struct node *nodes_get(struct nodes *nodes, uint64_t id) {
  for (struct node *node = nodes->by_id[hash_id(id) & (nodes->size - 1)]; node; node = node->next_by_id)
    if (node->id == id) return node;
  return NULL;
}

struct node *nodes_by_inode(struct nodes *nodes, dev_t dev, ino_t ino, const struct grant *grant) {
  for (struct node *node = nodes->by_inode[hash_inode(dev, ino, grant) & (nodes->size - 1)]; node; node = node->next_by_inode)
    if (node->dev == dev && node->ino == ino && node->grant == grant) return node;
  return NULL;
}

struct node *nodes_by_name(struct nodes *nodes, const struct node *parent, const char *name) {
  for (struct node *node = nodes->by_name[hash_name(parent, name) & (nodes->size - 1)]; node; node = node->next_by_name)
    if (node->parent == parent && strcmp(node->name, name) == 0) return node;
  return NULL;
}

struct node *nodes_add(struct nodes *nodes, struct node *node) {
  if (nodes->count + 1 > nodes->size / 2) grow(nodes);
  nodes->count++;
  size_t at = hash_id(node->id) & (nodes->size - 1);
  node->next_by_id = nodes->by_id[at];
  nodes->by_id[at] = node;
  link_inode(nodes, node);
  link_name(nodes, node);
  if (node->parent) node->parent->children++;
  return node;
}

static void release(struct nodes *nodes, struct node *node);

void nodes_unplace(struct nodes *nodes, struct node *node) {
  if (!node->parent) return;
  unlink_from(&nodes->by_name[hash_name(node->parent, node->name) & (nodes->size - 1)], node, offsetof(struct node, next_by_name));
  struct node *parent = node->parent;
  node->parent = NULL;
  parent->children--;
  release(nodes, parent);
}

void nodes_place(struct nodes *nodes, struct node *node, struct node *parent, const char *name) {
  if (node->parent == parent && node->name && strcmp(node->name, name) == 0) return;
  // Whatever was last found under that name there is not there any more.
  struct node *there = nodes_by_name(nodes, parent, name);
  if (there && there != node) nodes_unplace(nodes, there);
  parent->children++;
  nodes_unplace(nodes, node);
  free(node->name);
  node->name = strdup(name);
  if (!node->name) fail("out of memory");
  node->parent = parent;
  link_name(nodes, node);
}

/** Frees a real node nothing holds: the kernel forgot it, no node names it as parent, no backing keeps it. */
static void release(struct nodes *nodes, struct node *node) {
  // Synthetic nodes are few (one per plan path ever shown) and are kept: a later plan may show them again.
  if (node->lookups > 0 || node->children > 0 || !node->grant) return;
  if (node->grant && node->grant->root == node && node->grant->alive) return;
  unlink_from(&nodes->by_id[hash_id(node->id) & (nodes->size - 1)], node, offsetof(struct node, next_by_id));
  if (node->grant) unlink_from(&nodes->by_inode[hash_inode(node->dev, node->ino, node->grant) & (nodes->size - 1)], node, offsetof(struct node, next_by_inode));
  struct node *parent = node->parent;
  if (parent) {
    unlink_from(&nodes->by_name[hash_name(parent, node->name) & (nodes->size - 1)], node, offsetof(struct node, next_by_name));
    parent->children--;
  }
  if (node->grant && node->grant->root == node) node->grant->root = NULL;
  if (nodes->on_release) nodes->on_release(node, nodes->on_release_arg);
  if (node->fd >= 0) close(node->fd);
  if (node->grant) grant_put(node->grant);
  free(node->name);
  free(node);
  nodes->count--;
  if (parent) release(nodes, parent);
}

void nodes_forget(struct nodes *nodes, struct node *node, uint64_t count) {
  node->lookups = count > node->lookups ? 0 : node->lookups - count;
  release(nodes, node);
}

void nodes_each(struct nodes *nodes, void (*each)(struct node *, void *), void *arg) {
  for (size_t i = 0; i < nodes->size; i++)
    for (struct node *node = nodes->by_id[i], *next; node; node = next) {
      next = node->next_by_id;
      each(node, arg);
    }
}

void nodes_on_release(struct nodes *nodes, void (*hook)(struct node *, void *), void *arg) {
  nodes->on_release = hook;
  nodes->on_release_arg = arg;
}
