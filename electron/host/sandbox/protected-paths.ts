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
// Only paths that exist are protected (bound read-only onto themselves). A missing one could only be
// held by creating a mount point for it in the person's folder while the server runs (an empty
// `.vscode`, `.mcp.json`, `.gitmodules`… in every writable project, and an empty `.bash_login` that
// would change how bash starts). The exception is `.git/hooks`, which the app creates (as git init
// does) so that it can be held. SECURITY.md says what this leaves open.
import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from './sandbox-types.js';

/** Per repository or project folder: what its tools run. */
export const PROJECT_ENTRIES = [
  '.git/hooks',
  '.git/config',
  '.git/info/attributes',
  '.gitmodules',
  '.husky',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  '.vscode',
  '.idea',
  '.zed',
  '.fleet',
  '.devcontainer',
  '.mcp.json',
  '.claude',
  '.cursor',
  '.codex',
  '.gemini',
  '.continue',
  '.windsurf',
  '.roo',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'bunfig.toml',
  '.ripgreprc',
] as const;

/** In the person's home folder: what their shell, git, desktop and agents run. */
export const HOME_ENTRIES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.xprofile',
  '.xsessionrc',
  '.pam_environment',
  '.gitconfig',
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
  '.claude.json',
  ...PROJECT_ENTRIES,
] as const;

/** How deep below a read-write grant to look for repositories (each has its own .git/hooks). */
const REPO_SEARCH_DEPTH = 3;
/** At most this many folders are read per grant: a grant of a huge tree costs a bounded start. */
const REPO_SEARCH_BUDGET = 2000;
/** Folders never searched for repositories: dependencies and build output, not the person's projects. */
const NOT_SEARCHED = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__', 'target', 'dist', 'build', '.cache', '.npm', '.cargo', '.rustup']);

export interface ProtectedPathInput {
  /** The server's read-write roots (canonical). */
  writableRoots: readonly string[];
  /** The person's home folder (canonical). */
  home: string;
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
    // Home's own entries, when the grant holds the home folder.
    if (isWithin(input.home, root)) for (const entry of HOME_ENTRIES) add(path.join(input.home, entry));
    for (const project of projectFolders(root)) {
      ensureHooksFolder(project);
      for (const entry of PROJECT_ENTRIES) add(path.join(project, entry));
      const gitFile = path.join(project, '.git');
      if (isFile(gitFile)) add(gitFile);
      const hooksPath = configuredHooksPath(project);
      if (hooksPath) add(hooksPath);
    }
  }
  return [...found].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));
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
