// The protected-name rules as data: the one table the file view decides by (the helper matches
// them, native/sandbox-helper/table.c), built from the names the registry and the UI list
// (shared/protected-names.ts). Each rule is a pattern of path components ("*" one, "**" any number)
// in a group, the protected name a person may leave writable per grant.
//
// - A project's names are protected at any depth below a read-write grant (any folder can be opened
//   as a project), but not inside node_modules (what a package ships is no project's config).
// - A home folder's start-up files only at the home folder itself (anchored).
// - Git's own: hooks and config of the repository, of each submodule (.git/modules/NAME/…, nested
//   too), of each worktree, and a new .git where there was none (git init, a clone).
// A grant of a protected folder itself (~/.claude, a repo's .git) is the person's choice: the rules
// match only below the grant's own folder.
import { HOME_ENTRIES, NEW_REPOSITORY, PROJECT_ENTRIES, PROTECTED_NAMES } from '../../../../shared/protected-names.js';

export interface ViewRule {
  /** Index into `groups`. */
  group: number;
  /** Absolute folder the pattern starts at, or undefined: at any depth. */
  anchor?: string | undefined;
  /** Components joined by "/": names, "*" (one component) or "**" (any number). */
  pattern: string;
}

export interface ViewRules {
  /** The groups, each a protected name (PROTECTED_NAMES): a grant's opt-outs are bits in this order. */
  groups: readonly string[];
  rules: readonly ViewRule[];
}

/** What each project name protects beyond itself: git's own files of submodules and worktrees. */
const ALSO: Readonly<Record<string, readonly string[]>> = {
  '.git/hooks': ['.git/modules/**/hooks/**'],
  '.git/config': ['.git/config.worktree', '.git/modules/**/config', '.git/modules/**/config.worktree', '.git/worktrees/*/config.worktree'],
  '.git/info/attributes': ['.git/modules/**/info/attributes'],
};

/** The rules for a person whose home folder is `home` (canonical). */
export function viewRules(home: string): ViewRules {
  const groups = PROTECTED_NAMES;
  const group = (name: string) => groups.indexOf(name);
  const rules: ViewRule[] = [];
  for (const name of PROJECT_ENTRIES) {
    rules.push({ group: group(name), pattern: `${name}/**` });
    for (const more of ALSO[name] ?? []) rules.push({ group: group(name), pattern: more });
  }
  // The .git itself, folder or file (a file names the git folder, and so its hooks): not made, replaced or moved.
  rules.push({ group: group(NEW_REPOSITORY), pattern: NEW_REPOSITORY });
  for (const name of HOME_ENTRIES) {
    if ((PROJECT_ENTRIES as readonly string[]).includes(name)) continue;
    rules.push({ group: group(name), anchor: home, pattern: `${name}/**` });
  }
  return { groups, rules };
}

/** A grant's opt-outs as the helper reads them: bit i set when the person left group i writable. */
export function optOutBits(rules: ViewRules, writableByChoice: readonly string[] | undefined): bigint {
  let bits = 0n;
  for (const name of writableByChoice ?? []) {
    const index = rules.groups.indexOf(name);
    if (index >= 0) bits |= 1n << BigInt(index);
  }
  return bits;
}

/**
 * The rules with each folder `core.hooksPath` names (protected-paths.ts configuredHooksFolders)
 * protected whole, in the `.git/hooks` group: git runs what is there as it would `.git/hooks`.
 */
export function withHooksFolders(rules: ViewRules, folders: readonly string[]): ViewRules {
  const group = rules.groups.indexOf('.git/hooks');
  return { groups: rules.groups, rules: [...rules.rules, ...folders.map((folder) => ({ group, anchor: folder, pattern: '**' }))] };
}
