// The names that stay read-only inside a read-write grant (electron/host/sandbox/protected-paths.ts
// says why each), and the person's per-grant choice to leave some of them writable. Here, not in
// the sandbox module, because the registry's schema and the UI list them too: one list for all.

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

/**
 * A new repository: a `.git` (folder or file) made where there was none, by `git init`, a clone or by
 * hand. Its hooks and config would be the server's, run by the person's next `git status`. Refused by
 * the file view (electron/host/sandbox/view/); a person may allow it for a grant. Allowing it alone
 * lets a server make an empty `.git`; `git init` and `git clone` also write its config and hooks,
 * which stay protected unless `.git/config` and `.git/hooks` are left writable too.
 */
export const NEW_REPOSITORY = '.git';

/**
 * Without a file view (bind mounts), protected names are found at a server's start in the granted
 * folder and the repositories up to this many folders below it; deeper ones, and those made later,
 * are not protected (the self-check and the badge say so).
 */
export const REPO_SEARCH_DEPTH = 3;

/** Every protected name, once: what a grant may opt back in. */
export const PROTECTED_NAMES: readonly string[] = [...new Set<string>([...HOME_ENTRIES, NEW_REPOSITORY])];

/**
 * Protected names a person chose to leave writable, per grant: `{ [rootId]: names }` on the server's
 * record. Honoured only while that grant is read-write (a read-only grant has nothing writable to
 * leave open); dropped with the grant, so a later grant of the same folder starts protected again.
 */
export type WritableByChoice = Record<string, string[]>;

/** Why a list cannot be a grant's opt-in, in English (schema, CLI and UI say it), or undefined. */
export function optInProblem(names: unknown): string | undefined {
  if (!Array.isArray(names)) return 'the opted-in paths must be a list of protected names';
  const unknown = names.filter((name) => typeof name !== 'string' || !PROTECTED_NAMES.includes(name));
  if (unknown.length > 0) return `not a protected name: ${unknown.map(String).join(', ')} (protected: ${PROTECTED_NAMES.join(', ')})`;
  if (new Set(names).size !== names.length) return 'a protected name is listed twice';
  return undefined;
}
