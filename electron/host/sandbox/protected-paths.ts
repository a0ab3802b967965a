// Paths inside a read-write grant that stay read-only: files and folders that the person's own
// tools run later, unconfined, without being asked (git hooks and config, editor task files, agent
// and MCP configs, package-manager rc files, shell start-up files). A confined server that could
// write them would run code outside its sandbox the next time the person types `git status`, opens
// the folder in an editor, or runs `npm`.
//
// Started from Anthropic's sandbox-runtime mandatory deny list (.gitconfig, .gitmodules, .bashrc,
// .bash_profile, .zshrc, .zprofile, .profile, .ripgreprc, .mcp.json, .vscode, .idea,
// .claude/commands, .claude/agents, .git/hooks, .git/config) and taken further: all of .claude
// (its settings.json holds hooks that run commands), other agents' and editors' folders, the hook
// managers (husky, pre-commit, lefthook), package-manager files that run code on any command
// (.npmrc node-options, .yarnrc.yml yarnPath, .pnpmfile.cjs, bunfig.toml preload), a .git that is a
// file (it names the git dir, and so the hooks), and the folder core.hooksPath names.
//
// Not protected, on purpose: files that run only when the person runs them (a Makefile, package.json
// scripts, .envrc which direnv asks before it runs): a read-write grant is a grant to edit source.
//
// Paths that exist are bound read-only onto themselves. A missing one is held the way
// sandbox-runtime holds a missing deny path on Linux (bwrap makes an empty file as its mount point),
// but made by the app itself (holdMissing), without following a symlink: an empty folder or file in
// the person's folder while the server runs, bound read-only like the rest, and removed once no
// sandbox holds it (releasePlaceholders) if it is still empty. What that costs: empty `.vscode`,
// `.claude`, `.mcp.json`, `.gitmodules`… appear in each writable project while a server runs (a
// tool that reads an empty `.mcp.json` may complain meanwhile), and an app killed outright leaves
// them. Not held: `.bash_profile`, `.bash_login` and `.profile` (an empty one changes how bash
// starts) and anything inside a missing `.git`. SECURITY.md says what this leaves open.
import fs from 'node:fs';
import path from 'node:path';
import { HOME_ENTRIES, PROJECT_ENTRIES, REPO_SEARCH_DEPTH } from '../../../shared/protected-names.js';
import { makePlaceholder, removePlaceholder, unchanged, type Placeholder } from './placeholder-files.js';
import { isWithin, type GrantedFolder } from './sandbox-types.js';

export type { Placeholder };

export { HOME_ENTRIES, PROJECT_ENTRIES };

/** At most this many folders are read per grant: a grant of a huge tree costs a bounded start. */
const REPO_SEARCH_BUDGET = 2000;
/** Folders never searched for repositories: dependencies and build output, not the person's projects. */
const NOT_SEARCHED = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', 'target', 'dist', 'build', '.cache', '.npm', '.cargo', '.rustup']);

export interface ProtectedPathInput {
  /** The server's read-write roots (canonical). */
  writableRoots: readonly string[];
  /** The person's home folder (canonical). */
  home: string;
  /**
   * Per read-write root (by its canonical path): the protected names the person chose to leave
   * writable in that grant (shared/protected-names.ts). Each applies only to what is found from its
   * own root: a name another read-write root also reaches (a grant of a parent folder without the
   * choice) stays protected, so a choice never opens more than its own grant.
   */
  writableByChoice?: ReadonlyMap<string, readonly string[]> | undefined;
}

/**
 * What to protect for a server's roots: its read-write ones, each with the names the person chose to
 * leave writable in that grant. A read-only grant's choice is ignored: nothing there is writable.
 */
export function protectedInputOf(roots: readonly GrantedFolder[], home: string): ProtectedPathInput {
  const writable = roots.filter((root) => root.mode === 'read-write');
  return {
    writableRoots: writable.map((root) => root.path),
    home,
    writableByChoice: new Map(writable.flatMap((root) => (root.writableByChoice?.length ? [[root.path, root.writableByChoice] as const] : []))),
  };
}

/** The protected names that stay protected from this root: all but the ones its grant opted in. */
function keptFor(input: ProtectedPathInput, root: string): (entry: string) => boolean {
  const chosen = new Set(input.writableByChoice?.get(root) ?? []);
  return (entry) => !chosen.has(entry);
}

/**
 * The existing paths to bind read-only over the server's read-write roots, parents before children.
 * Missing `.git/hooks` folders of repositories found are created first, so that they can be held.
 */
export function protectedPaths(input: ProtectedPathInput): string[] {
  const found = new Set<string>();
  const add = (p: string) => {
    if (input.writableRoots.some((root) => isWithin(p, root)) && exists(p)) found.add(p);
  };
  for (const root of input.writableRoots) {
    const kept = keptFor(input, root);
    // Home's own entries, when the grant holds the home folder.
    if (isWithin(input.home, root)) for (const entry of HOME_ENTRIES.filter(kept)) add(path.join(input.home, entry));
    for (const project of projectFolders(root)) {
      if (kept('.git/hooks')) ensureHooksFolder(project);
      for (const entry of PROJECT_ENTRIES.filter(kept)) add(path.join(project, entry));
      const gitFile = path.join(project, '.git');
      if (isFile(gitFile)) add(gitFile);
      const hooksPath = configuredHooksPath(project);
      if (hooksPath) add(hooksPath);
    }
  }
  return [...found].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The folders `core.hooksPath` names in the repositories found below the read-write roots, where
 * they lie in one (the file view protects each, as it does `.git/hooks`). Found at each start and
 * each change of grants, within the same bounded search.
 */
export function configuredHooksFolders(roots: readonly GrantedFolder[]): string[] {
  const found = new Set<string>();
  for (const root of roots) {
    if (root.mode !== 'read-write' || root.writableByChoice?.includes('.git/hooks')) continue;
    for (const project of projectFolders(root.path)) {
      const hooksPath = configuredHooksPath(project);
      if (hooksPath && hooksPath !== root.path && isWithin(hooksPath, root.path)) found.add(hooksPath);
    }
  }
  return [...found];
}

/** The root itself and every repository below it, within a bounded search. */
function projectFolders(root: string): string[] {
  const projects = [root];
  let budget = REPO_SEARCH_BUDGET;
  const queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  while (queue.length > 0 && budget > 0) {
    const { dir, depth } = queue.shift() as { dir: string; depth: number };
    budget--;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    if (dir !== root && entries.some((entry) => entry.name === '.git')) projects.push(dir);
    if (depth >= REPO_SEARCH_DEPTH) continue;
    for (const entry of entries) {
      if (entry.isDirectory() && !NOT_SEARCHED.has(entry.name)) queue.push({ dir: path.join(dir, entry.name), depth: depth + 1 });
    }
  }
  return projects;
}

/** A repository without .git/hooks gets an empty one (git init makes it too), so the server cannot create it. */
function ensureHooksFolder(project: string): void {
  const gitDir = path.join(project, '.git');
  try {
    if (!fs.lstatSync(gitDir).isDirectory()) return;
    fs.mkdirSync(path.join(gitDir, 'hooks'));
  } catch {
    // No .git folder, the hooks folder exists, or it cannot be made: nothing to do.
  }
}

/** The folder `core.hooksPath` names in the repository's own config, made absolute; only a plain value is read. */
export function configuredHooksPath(project: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(project, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  let inCore = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s]+)[^\]]*\]/.exec(line);
    if (section) {
      inCore = section[1]?.toLowerCase() === 'core';
      continue;
    }
    const value = inCore ? /^hookspath\s*=\s*"?([^"#;]+?)"?\s*$/i.exec(line)?.[1] : undefined;
    if (value) return path.resolve(project, value.startsWith('~/') ? path.join(process.env.HOME ?? '', value.slice(2)) : value);
  }
  return undefined;
}

function exists(p: string): boolean {
  try {
    const stat = fs.lstatSync(p);
    return stat.isDirectory() || stat.isFile();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** Entries that are folders when they exist: a missing one is held by an empty folder, a file one by an empty file. */
const FOLDER_ENTRIES = new Set([
  '.git/hooks',
  '.husky',
  '.vscode',
  '.idea',
  '.zed',
  '.fleet',
  '.devcontainer',
  '.claude',
  '.cursor',
  '.codex',
  '.gemini',
  '.continue',
  '.windsurf',
  '.roo',
  '.ssh',
  '.gnupg',
  '.local/bin',
  'bin',
  '.config/git',
  '.config/fish',
  '.config/autostart',
  '.config/systemd',
  '.config/environment.d',
  '.config/Code/User',
]);

/**
 * Missing entries that cannot be held by a placeholder, because their mere existence changes what
 * runs: a login bash reads the first of these it finds, so an empty `.bash_login` would stop it
 * reading the person's `.profile`.
 */
const EXISTENCE_MATTERS = new Set(['.bash_profile', '.bash_login', '.profile']);

/**
 * Makes an empty placeholder (folder or file) for each protected name that does not exist yet inside
 * the server's read-write roots, so that it is bound read-only like the rest and the server cannot
 * create it. The placeholder is at the first missing part of the path (an empty `.git/info` for a
 * missing `.git/info/attributes`). Not made: inside a missing `.git` (a folder that is not a
 * repository stays one a server may `git init`: its hooks would then be the server's own, and git
 * asks nothing), and the names in EXISTENCE_MATTERS. Returns what it made, for
 * releasePlaceholders once the server is gone.
 */
export function holdMissing(input: ProtectedPathInput, held: readonly Placeholder[] = [], adopt: (at: string) => Placeholder | undefined = () => undefined): Placeholder[] {
  const made: Placeholder[] = [];
  const ours = new Set(held.map((placeholder) => placeholder.path));
  const hold = (project: string, entry: string) => {
    if (EXISTENCE_MATTERS.has(entry)) return;
    let at = project;
    for (const [index, part] of entry.split('/').entries()) {
      at = path.join(at, part);
      let stat: fs.Stats | undefined;
      try {
        stat = fs.lstatSync(at);
      } catch {
        stat = undefined;
      }
      if (stat) {
        // A placeholder a killed process left (its journal's), still as it was made: this start's now,
        // held and removed with the rest of its own.
        const orphan = ours.has(at) ? undefined : adopt(at);
        if (orphan) {
          made.push(orphan);
          return;
        }
        // Present: held as an existing path (protectedPaths), or not a folder to go into; a placeholder
        // made earlier (an empty .git/info) is held whole, never filled with placeholders of its own.
        if (!stat.isDirectory() || ours.has(at)) return;
        continue;
      }
      if (part === '.git') return;
      const last = index === entry.split('/').length - 1;
      // Made in its folder by descriptor (placeholder-files.ts); not made (a read-only folder, a
      // swapped one) is left as it is, and said by what the self-check finds.
      const placed = makePlaceholder(path.dirname(at), part, !last || FOLDER_ENTRIES.has(entry));
      if (placed) made.push(placed);
      return;
    }
  };
  for (const root of input.writableRoots) {
    const kept = keptFor(input, root);
    if (isWithin(input.home, root)) for (const entry of HOME_ENTRIES.filter(kept)) hold(input.home, entry);
    // The granted folder itself and each repository found below it: the same projects whose existing
    // names are held (protectedPaths). Without a file view each placeholder is covered by a
    // read-only bind at start; with one, the view's name rules refuse these names at any depth anyway.
    for (const project of projectFolders(root)) for (const entry of PROJECT_ENTRIES.filter(kept)) hold(project, entry);
  }
  return made;
}

/**
 * The paths to bind read-only for these roots, placeholders for missing names made first: the one
 * list the sandbox holds, at start and for every live change (grant-mounts.ts). `held` are the
 * placeholders this sandbox made before (a live change keeps holding those still inside a read-write
 * root). Returns the new placeholders too, for releasePlaceholders.
 */
export function protectRoots(
  roots: readonly GrantedFolder[],
  home: string,
  held: readonly Placeholder[] = [],
  adopt?: (at: string) => Placeholder | undefined,
): { paths: string[]; made: Placeholder[] } {
  const input = protectedInputOf(roots, home);
  const made = holdMissing(input, held, adopt);
  // A placeholder for a name deeper down (an empty .git/info for .git/info/attributes) is held itself:
  // protectedPaths lists only the names.
  const placed = [...held, ...made].filter((placeholder) => input.writableRoots.some((root) => isWithin(placeholder.path, root)) && exists(placeholder.path));
  const paths = [...new Set([...protectedPaths(input), ...placed.map((placeholder) => placeholder.path)])];
  return { paths: paths.sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0)), made };
}

/** Mount points of every mount namespace but ours, as the processes living in them see them. */
function mountedElsewhere(): Set<string> {
  const ours = fs.readlinkSync('/proc/self/ns/mnt');
  const seen = new Set<string>([ours]);
  const points = new Set<string>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const ns = fs.readlinkSync(`/proc/${pid}/ns/mnt`);
      if (seen.has(ns)) continue;
      seen.add(ns);
      for (const line of fs.readFileSync(`/proc/${pid}/mountinfo`, 'utf8').split('\n')) {
        const point = line.split(' ')[4];
        if (point) points.add(point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return points;
}

/**
 * Removes the placeholders once no sandbox holds them any more (this server's, and another's that
 * bound one at its own start), if each is still the empty file or folder that was made: something
 * the person wrote there meanwhile is theirs and stays. Looks every 250 ms while the server exits,
 * then every 5 s for as long as another sandbox holds one (~3 ms a look), never keeping this process up.
 */
/**
 * The protected paths each start of this process planned to bind, counted: a placeholder an earlier
 * start made is, to the next start of the same server, an existing protected name it binds. The
 * earlier start's release must leave it while a later one still plans or holds it (a restart at once
 * found it removed between its plan and its spawn: "gone since its sandbox was planned").
 */
const claims = new Map<string, number>();

/** Counts these paths as planned by one start; call the result when that start is over. */
export function claimPaths(paths: readonly string[]): () => void {
  for (const p of paths) claims.set(p, (claims.get(p) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    for (const p of paths) {
      const left = (claims.get(p) ?? 1) - 1;
      if (left > 0) claims.set(p, left);
      else claims.delete(p);
    }
  };
}

export function releasePlaceholders(placeholders: readonly Placeholder[]): Promise<void> {
  let left = [...placeholders];
  const quickUntil = Date.now() + 10_000;
  return new Promise((resolve) => {
    const sweep = () => {
      const mounted = left.length > 0 ? mountedElsewhere() : new Set<string>();
      left = left.filter((placeholder) => {
        if (mounted.has(placeholder.path) || claims.has(placeholder.path)) return true;
        removeIfUnchanged(placeholder);
        return false;
      });
      if (left.length === 0) return resolve();
      // Its caller awaits this (a build step's folder is renamed once it is clean): in the first
      // seconds, while a sandbox just ended winds down, the timer keeps the process alive; an
      // unref'd one let a process with nothing else open end mid-start (Node's code 13). After
      // that, a placeholder another server's sandbox still holds is swept without keeping a
      // process that is done from ending (its journal removes it on a later start).
      if (Date.now() < quickUntil) setTimeout(sweep, 250);
      else setTimeout(sweep, 5000).unref();
    };
    sweep();
  });
}

function removeIfUnchanged(placeholder: Placeholder): void {
  removePlaceholder(placeholder);
}

export { unchanged as placeholderUnchanged };
