// The protected-name rules, as the helper itself answers them (its `inspect`): a project's names at
// any depth below a read-write grant, a home's start-up files at the home folder only, git's own
// files of submodules and worktrees, a new .git, and a grant's opt-outs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROTECTED_NAMES } from '../../../../../shared/protected-names.js';
import { optOutBits, viewRules, withHooksFolders } from '../../../../../electron/host/sandbox/view/view-rules.js';
import { helper, inspect, query } from './view-inspect.js';

const HOME = '/home/me';
const rules = viewRules(HOME);
const FREE = 0;
const ON_THE_WAY = 1;
const PROTECTED = 2;

/** The helper's answer for a path below a grant. */
function guard(grant: string, rel: string, optOuts = 0n, withRules = rules): { guard: number; group: string } {
  const result = inspect(withRules, [{ kind: 'dir', path: '/' }], [query(grant, rel.split('/').filter(Boolean), optOuts)]);
  expect(result.error).toBeUndefined();
  return result.answers[0] as { guard: number; group: string };
}

describe('viewRules', () => {
  it('has a group per protected name, few enough for a grant’s 64-bit opt-outs', () => {
    expect(rules.groups).toEqual(PROTECTED_NAMES);
    expect(rules.groups.length).toBeLessThanOrEqual(64);
    for (const rule of rules.rules) expect(rule.group).toBeGreaterThanOrEqual(0);
  });

  it('turns a grant’s opt-ins into bits, ignoring names it does not know', () => {
    const bits = optOutBits(rules, ['.vscode', '.mcp.json', 'not-a-name']);
    expect(bits).toBe((1n << BigInt(rules.groups.indexOf('.vscode'))) | (1n << BigInt(rules.groups.indexOf('.mcp.json'))));
  });
});

describe.runIf(helper !== undefined)('the helper’s rules', () => {
  it.each([
    // Git's own, in the repository, in a submodule (nested too), in a worktree.
    ['repo/.git/hooks/pre-commit', PROTECTED, '.git/hooks'],
    ['repo/.git/hooks', PROTECTED, '.git/hooks'],
    ['repo/.git/config', PROTECTED, '.git/config'],
    ['repo/.git/config.worktree', PROTECTED, '.git/config'],
    ['repo/.git/modules/sub/hooks/post-checkout', PROTECTED, '.git/hooks'],
    ['repo/.git/modules/sub/modules/inner/hooks/x', PROTECTED, '.git/hooks'],
    ['repo/.git/modules/sub/config', PROTECTED, '.git/config'],
    ['repo/.git/worktrees/wt/config.worktree', PROTECTED, '.git/config'],
    ['repo/.git/info/attributes', PROTECTED, '.git/info/attributes'],
    ['repo/.git/modules/sub/info/attributes', PROTECTED, '.git/info/attributes'],
    // A new .git (git init, a clone), or a .git file naming another git folder.
    ['plain/.git', PROTECTED, '.git'],
    // What git writes in normal work stays writable.
    ['repo/.git/index', FREE, '-'],
    ['repo/.git/objects/ab/cdef', FREE, '-'],
    ['repo/.git/refs/heads/main', FREE, '-'],
    ['repo/.git/info/exclude', FREE, '-'],
    // The way to a protected name: it may not be moved away or removed.
    ['repo/.git/modules/sub', ON_THE_WAY, '.git/hooks'],
    // Editors', agents' and hook managers' files, at any depth (a repository four levels down, a plain folder).
    ['go/src/github.com/org/repo/.vscode/tasks.json', PROTECTED, '.vscode'],
    ['a/b/c/d/e/.mcp.json', PROTECTED, '.mcp.json'],
    ['.claude/settings.json', PROTECTED, '.claude'],
    ['x/.husky/pre-commit', PROTECTED, '.husky'],
    ['x/lefthook.yml', PROTECTED, 'lefthook.yml'],
    // Not inside node_modules: what a package ships is no project's config.
    ['app/node_modules/pkg/.npmrc', FREE, '-'],
    ['app/node_modules/pkg/.vscode/settings.json', FREE, '-'],
    // Ordinary source.
    ['src/index.ts', FREE, '-'],
    ['Makefile', FREE, '-'],
    // Case does not matter (a case-insensitive folder would make .GIT the same as .git).
    ['repo/.GIT/HOOKS/pre-commit', PROTECTED, '.git/hooks'],
  ])('%s below a project grant: %i', (rel, expected, group) => {
    expect(guard('/work/proj', rel)).toEqual({ guard: expected, group });
  });

  it('protects the home folder’s start-up files only at the home folder', () => {
    expect(guard(HOME, '.bashrc')).toEqual({ guard: PROTECTED, group: '.bashrc' });
    expect(guard(HOME, '.config/fish/config.fish')).toEqual({ guard: PROTECTED, group: '.config/fish' });
    expect(guard(HOME, '.ssh/authorized_keys')).toEqual({ guard: PROTECTED, group: '.ssh' });
    expect(guard('/home', 'me/.bashrc')).toEqual({ guard: PROTECTED, group: '.bashrc' });
    // On the way to them, from a grant above the home folder.
    expect(guard('/home', 'me')).toEqual({ guard: ON_THE_WAY, group: expect.any(String) });
    // Elsewhere, a .bashrc is a file like any other.
    expect(guard('/work/proj', 'sub/.bashrc')).toEqual({ guard: FREE, group: '-' });
    // A grant of ~/.config protects what runs from there; a grant of ~/.config/fish itself is the person's choice.
    expect(guard(`${HOME}/.config`, 'fish/config.fish')).toEqual({ guard: PROTECTED, group: '.config/fish' });
    expect(guard(`${HOME}/.config/fish`, 'config.fish')).toEqual({ guard: FREE, group: '-' });
  });

  it('leaves a protected folder itself granted writable (the person granted exactly it)', () => {
    expect(guard('/work/proj/.git', 'hooks/pre-commit')).toEqual({ guard: FREE, group: '-' });
    expect(guard(`${HOME}/.claude`, 'settings.json')).toEqual({ guard: FREE, group: '-' });
  });

  it('leaves writable what the person opted in for that grant, and nothing else', () => {
    const bits = optOutBits(rules, ['.vscode', '.git']);
    expect(guard('/work/proj', 'a/.vscode/tasks.json', bits)).toEqual({ guard: FREE, group: '-' });
    expect(guard('/work/proj', 'plain/.git', bits).guard).toBe(ON_THE_WAY);
    expect(guard('/work/proj', 'a/.mcp.json', bits)).toEqual({ guard: PROTECTED, group: '.mcp.json' });
    expect(guard('/work/proj', 'repo/.git/hooks/x', bits)).toEqual({ guard: PROTECTED, group: '.git/hooks' });
  });

  it('protects the folder a repository’s core.hooksPath names, whole', () => {
    const withHooks = withHooksFolders(rules, ['/work/proj/repo/.githooks']);
    expect(guard('/work/proj', 'repo/.githooks/pre-commit', 0n, withHooks)).toEqual({ guard: PROTECTED, group: '.git/hooks' });
    expect(guard('/work/proj', 'repo/.githooks', 0n, withHooks)).toEqual({ guard: PROTECTED, group: '.git/hooks' });
    expect(guard('/work/proj', 'repo/src', 0n, withHooks)).toEqual({ guard: FREE, group: '-' });
  });

  it('answers the same as a reference matcher for any path of protected-looking names', () => {
    const part = fc.constantFrom('.git', 'hooks', 'config', 'modules', 'sub', 'node_modules', '.vscode', 'src', '.mcp.json', 'worktrees', 'info', 'attributes', 'x');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 7 }), (rel) => {
        const answer = guard('/work/proj', rel.join('/'));
        expect(answer.guard).toBe(reference(rel));
      }),
      { numRuns: 300 },
    );
  });
});

/** The rules of a project grant, written plainly: the strongest match at any start before a node_modules. */
function reference(rel: readonly string[]): number {
  let best = FREE;
  for (const rule of rules.rules) {
    if (rule.anchor) continue;
    const pattern = rule.pattern.split('/');
    for (let start = 0; start < rel.length; start++) {
      best = Math.max(best, globRef(rel.slice(start), pattern));
      if (rel[start]?.toLowerCase() === 'node_modules') break;
    }
  }
  return best;
}

function globRef(path: readonly string[], pattern: readonly string[]): number {
  if (pattern.length === 0) return path.length === 0 ? PROTECTED : FREE;
  if (path.length === 0) return pattern.every((p) => p === '**') ? PROTECTED : ON_THE_WAY;
  const [head, ...tail] = pattern;
  if (head === '**') return Math.max(globRef(path, tail), globRef(path.slice(1), pattern));
  return head === '*' || head?.toLowerCase() === path[0]?.toLowerCase() ? globRef(path.slice(1), tail) : FREE;
}
