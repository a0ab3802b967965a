// The view's table as a pure function of grants (view-plan.ts), and its bytes as the helper reads
// them (its `inspect`): every name a folder may have comes back as the very same bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PathIdentity } from '../../../../../electron/host/sandbox/mount-descriptors.js';
import { planView, type ViewPlanInput } from '../../../../../electron/host/sandbox/view/view-plan.js';
import { encodeTable } from '../../../../../electron/host/sandbox/view/view-protocol.js';
import { viewRules } from '../../../../../electron/host/sandbox/view/view-rules.js';
import { helper, inspect } from './view-inspect.js';

const rules = viewRules('/home/me');
const dir: PathIdentity = { dev: 1, ino: 2, directory: true };

function input(overrides: Partial<ViewPlanInput> = {}): ViewPlanInput {
  return {
    roots: [],
    identityOf: () => dir,
    rules,
    dataDir: '/home/me/.config/mcp-roots',
    mountPoints: [
      { path: '/usr', file: false },
      { path: '/etc/passwd', file: true },
      { path: '/proc', file: false },
      { path: '/home/me/.config/mcp-roots/sandbox/servers/s/home', file: false },
    ],
    links: [{ path: '/bin', target: 'usr/bin' }],
    ...overrides,
  };
}

const byPath = (plan: ReturnType<typeof planView>) => new Map(plan.entries.map((entry) => [entry.path, entry]));

describe('planView', () => {
  it('shows each grant with its mode, the protected-name rules only where it is read-write, and /tmp private', () => {
    const plan = planView(input({ roots: [{ path: '/work/a', mode: 'read-write', writableByChoice: ['.vscode'] }, { path: '/work/b', mode: 'read-only' }] }));
    const entries = byPath(plan);
    expect(entries.get('/work/a')).toMatchObject({ kind: 'backing', writable: true, protect: true, optOuts: 1n << BigInt(rules.groups.indexOf('.vscode')) });
    expect(entries.get('/work/b')).toMatchObject({ kind: 'backing', writable: false, protect: false, optOuts: 0n });
    expect(entries.get('/tmp')).toMatchObject({ kind: 'backing', tmp: true, writable: true, protect: false });
    expect(entries.get('/')).toEqual({ kind: 'dir', path: '/' });
  });

  it('puts a folder (or an empty file) where bwrap mounts, and its links, and lists parents first', () => {
    const plan = planView(input());
    const entries = byPath(plan);
    expect(entries.get('/usr')).toEqual({ kind: 'dir', path: '/usr' });
    expect(entries.get('/etc/passwd')).toEqual({ kind: 'file', path: '/etc/passwd' });
    expect(entries.get('/bin')).toEqual({ kind: 'link', path: '/bin', target: 'usr/bin' });
    const depths = plan.entries.map((entry) => (entry.path === '/' ? 0 : entry.path.split('/').length - 1));
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
  });

  it('masks the data folder wherever a grant covers it, keeping the way to HOME', () => {
    const plan = planView(input({ roots: [{ path: '/home/me', mode: 'read-write' }] }));
    const entries = byPath(plan);
    expect(entries.get('/home/me/.config/mcp-roots')).toEqual({ kind: 'dir', path: '/home/me/.config/mcp-roots' });
    expect(entries.get('/home/me/.config/mcp-roots/sandbox/servers/s/home')).toEqual({ kind: 'dir', path: '/home/me/.config/mcp-roots/sandbox/servers/s/home' });
    // Not where no grant covers it.
    expect(byPath(planView(input({ roots: [{ path: '/work/a', mode: 'read-write' }] }))).has('/home/me/.config/mcp-roots')).toBe(false);
  });

  it('keeps a nested grant in its own mode, and a grant listed twice in its most permissive', () => {
    const plan = planView(input({ roots: [{ path: '/work', mode: 'read-write' }, { path: '/work/ro', mode: 'read-only' }, { path: '/work/x', mode: 'read-only' }, { path: '/work/x', mode: 'read-write' }] }));
    const entries = byPath(plan);
    expect(entries.get('/work/ro')).toMatchObject({ writable: false });
    expect(entries.get('/work/x')).toMatchObject({ writable: true });
  });

  it('leaves out a grant that is gone or is not a folder, and links a grant shows already', () => {
    const plan = planView(input({ roots: [{ path: '/gone', mode: 'read-write' }, { path: '/work', mode: 'read-write' }], identityOf: (p) => (p === '/gone' ? undefined : dir), links: [{ path: '/work/link', target: '/x' }] }));
    expect(plan.roots.map((root) => root.path)).toEqual(['/work']);
    expect(byPath(plan).has('/gone')).toBe(false);
    expect(byPath(plan).has('/work/link')).toBe(false);
  });

  it('shows the private temp folder on disk at its place in /tmp when there are no limits', () => {
    const plan = planView(input({ tmpFolder: { path: '/data/servers/s/tmp', inside: '/tmp/.private' } }));
    expect(byPath(plan).get('/tmp/.private')).toMatchObject({ kind: 'backing', source: '/data/servers/s/tmp', writable: true, protect: false });
  });
});

/** A folder name as a file system allows it: anything but "/" and NUL, and not "." or "..". */
const folderName = fc
  .oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    fc.array(fc.constantFrom('a', ' ', '\t', '\n', '\\', '#', '-', '\u00a0', '\u1680', '\u3000', '\ufeff', 'é', '\\040', '"', "'", '$', '*'), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  )
  .filter((name) => !name.includes('/') && !name.includes('\0') && name !== '.' && name !== '..');

describe.runIf(helper !== undefined)('the table on the wire', () => {
  it('comes back as the very bytes of every name, whatever the name', () => {
    fc.assert(
      fc.property(fc.array(folderName, { minLength: 1, maxLength: 4 }), folderName, (parts, link) => {
        const grant = `/${parts.join('/')}`;
        const result = inspect(rules, [
          { kind: 'dir', path: '/' },
          { kind: 'backing', path: grant, writable: true, protect: true, tmp: false, identity: dir, optOuts: 0n },
          { kind: 'link', path: `/lnk-${link}`, target: link },
        ]);
        expect(result.error).toBeUndefined();
        const backing = result.entries.find((entry) => entry.kind === 3);
        expect(backing?.path.equals(Buffer.from(grant, 'utf8'))).toBe(true);
        const made = result.entries.find((entry) => entry.kind === 2);
        expect(made?.path.equals(Buffer.from(`/lnk-${link}`, 'utf8'))).toBe(true);
        expect(made?.extra?.equals(Buffer.from(link, 'utf8'))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a malformed table with the reason, whole', () => {
    const good = encodeTable(1, rules, [{ kind: 'dir', path: '/' }, { kind: 'dir', path: '/usr' }]);
    expect(inspect(rules, [], [], good.subarray(0, good.length - 3)).error).toBe('no table');
    const cut = Buffer.from(good);
    cut.writeUInt32LE(cut.length - 5 - 3, 0);
    expect(inspect(rules, [], [], cut.subarray(0, cut.length - 3)).error).toMatch(/cut short/);
    for (const [path, why] of [
      ['relative', /not absolute/],
      ['/a//b', /not normalized/],
      ['/a/../b', /not normalized/],
      ['/a/./b', /not normalized/],
    ] as const) {
      expect(inspect(rules, [{ kind: 'dir', path: '/' }, { kind: 'dir', path }]).error, path).toMatch(why);
    }
    expect(inspect(rules, [{ kind: 'dir', path: '/' }, { kind: 'dir', path: '/a' }, { kind: 'dir', path: '/a' }]).error).toMatch(/listed twice/);
    expect(inspect(rules, [{ kind: 'dir', path: '/' }, { kind: 'link', path: '/l', target: 'x' }, { kind: 'dir', path: '/l/inside' }]).error).toMatch(/inside a link or a file/);
  });
});
