// A hostile server with one ordinary grant (the home folder, read-write: a git repo, the app's data
// folder two levels down, its own checkout inside it), trying every class of issue #22 through the
// app and through `mcp-roots proxy`, as root and as an unprivileged user. Every attempt must be
// refused by the OS (tests/fixtures/escape-artist.mjs lists them; tests/fixtures/hostile-world.ts
// builds the world and reports). Then the mount-time race, with the plan and the spawn pulled apart.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { confineStdio } from '../../electron/host/sandbox/confine-stdio.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { anyPathServer, closeConfined, startConfined } from '../support/confined-client.js';
import { listenDatagrams } from '../support/datagram-listener.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
const isRoot = process.getuid?.() === 0;

afterEach(async () => {
  await closeConfined();
  removeTempDirs();
});

interface WorldFacts {
  uid: number;
  selfCheck: { verified: boolean; detail?: string };
  outcomes: Record<string, string>;
  datagramsReceived: number;
  registryStillConfines: boolean;
  gitConfigUntouched: boolean;
  hooksEmpty: boolean;
  dataFolderInPlace: boolean;
  bareAsBefore: true | { before: string[]; after: string[] };
  bareNew: string[];
  plainAfter: string[];
}

async function runWorld(route: 'app' | 'proxy', as: 'self' | 'nobody'): Promise<WorldFacts> {
  const base = tempDir(`hostile-${route}-${as}-`);
  fs.chmodSync(base, 0o777);
  const node = [process.execPath, '--import', 'tsx', 'tests/fixtures/hostile-world.ts', route, base];
  const [command, args] = as === 'nobody' ? ['setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', ...node]] : [node[0] as string, node.slice(1)];
  const { stdout } = await promisify(execFile)(command, args as string[], { cwd: repoRoot, timeout: 150_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as WorldFacts;
}

const routes = ['app', 'proxy'] as const;
const users = isRoot ? (['self', 'nobody'] as const) : (['self'] as const);

describe.runIf(support.kind === 'bwrap')('a hostile server with a read-write grant of the home folder', () => {
  for (const route of routes) {
    for (const as of users) {
      it(`gets out in no way, through the ${route}, as ${as === 'self' ? (isRoot ? 'root' : 'this user') : 'an unprivileged user'}`, async () => {
        const facts = await runWorld(route, as);
        expect(facts.selfCheck.verified).toBe(true);
        // With a network of its own (pasta), socket(AF_UNIX) is allowed, as with the network off: a
        // socket file in its read-write grant is then a file the grant allows (path sockets are
        // governed by the mounts; SECURITY.md). Said by the check's detail, and only then expected.
        const privateNetwork = /network on through pasta/.test(facts.selfCheck.detail ?? '');
        // Writing a note into a read-write grant is the grant working, not an escape.
        const allowed = ['write a note in a plain folder (allowed: its grant is read-write)', ...(privateNetwork ? ['make a Unix socket in its grant'] : [])];
        for (const name of allowed) expect(facts.outcomes[name], name).toBe('ok');
        const escaped = Object.entries(facts.outcomes).filter(([name, outcome]) => !outcome.startsWith('ERROR') && !allowed.includes(name));
        expect(escaped, 'attempts that got through').toEqual([]);
        // The abstract socket (an X11 / D-Bus stand-in listening outside) is refused either way.
        expect(facts.outcomes['connect to an abstract Unix socket']).toMatch(privateNetwork ? /^ERROR ECONNREFUSED/ : /^ERROR/);
        // A datagram pair pointed at an abstract name outside: refused by the filter with the network
        // shared, not found in a namespace of its own; either way nothing reached the listener.
        for (const how of ['sendto', 'connect to']) {
          expect(facts.outcomes[`socketpair(AF_UNIX, SOCK_DGRAM), ${how} an abstract name outside`], how).toMatch(privateNetwork ? /^ERROR (Connection refused|No such file)/ : /^ERROR Operation not permitted/);
        }
        expect(facts.outcomes['socketpair(AF_UNIX, SOCK_RAW), sendto an abstract name outside']).toMatch(/^ERROR/);
        expect(facts.datagramsReceived).toBe(0);
        // The classes, each at least once (the list is longer; see escape-artist.mjs).
        expect(Object.keys(facts.outcomes)).toEqual(
          expect.arrayContaining([
            'write .git/hooks/pre-commit',
            'rename .git away (to make a new one)',
            'write home .bashrc',
            'rename the folder above the data folder',
            'read the project its node_modules link names',
            'connect to an abstract Unix socket',
            'write /proc/sys/kernel/core_pattern',
            'keyctl(session keyring)',
            'create missing .git/hooks/pre-commit',
            'create missing .vscode/tasks.json',
            'create missing .mcp.json',
            'create missing .vscode/tasks.json in a plain folder',
            'create missing .mcp.json in a plain folder',
          ]),
        );
        // The python3 helper ran: its refusals are the kernel's, not a missing interpreter.
        expect(facts.outcomes['keyctl(session keyring)']).toBe('ERROR Function not implemented');
        expect(facts).toMatchObject({ registryStillConfines: true, gitConfigUntouched: true, hooksEmpty: true, dataFolderInPlace: true });
        // Nothing of the app's left in the person's repository. Bind mounts: the placeholders that held
        // missing protected names are gone again. The file view makes none; what is new is only the
        // empty .git/info the server may make (its attributes file inside was refused).
        const viewed = /through its file view/.test(facts.selfCheck.detail ?? '');
        // As this process's user, the mechanism its own probe found; as nobody, whichever nobody may use (the device's mode decides).
        if (as === 'self') expect(viewed).toBe(support.view?.available === true);
        if (viewed) expect(facts.bareNew).toEqual(['.git/info (empty)']);
        else expect(facts.bareAsBefore).toBe(true);
        // The plain folder too: its placeholders are gone, the note it was allowed to write stays.
        expect(facts.plainAfter).toEqual(['note.txt']);
        // Class 8: the limits are in force (read by the self-check from /proc/<pid>/limits and its cgroup).
        // Root's tasks the kernel's rlimit never limits: as root (cgroup v1 writable here) a cgroup of its own does.
        if (route === 'app') {
          expect(facts.selfCheck.detail).toMatch(/memory 8192 MiB per process/);
          expect(facts.selfCheck.detail).toMatch(facts.uid === 0 ? /tasks 1024 \(its own cgroup v\d\)/ : /tasks \d+ for this user/);
        }
      }, 180_000);
    }
  }
});

describe.runIf(support.kind === 'bwrap')('the mount-time race', () => {
  /** A project two servers share; the granted folder is a subfolder of it. */
  function project() {
    const shared = tempDir('race-');
    const granted = path.join(shared, 'granted');
    fs.mkdirSync(granted);
    fs.writeFileSync(path.join(granted, 'mine.txt'), 'granted');
    return { shared, granted };
  }

  it('a granted folder swapped for a symlink to /etc after the plan is not mounted: the server does not start', async () => {
    const { granted } = project();
    const options = { serverId: 'race', roots: [{ path: granted, mode: 'read-write' as const }], dataDir: tempDir('race-data-'), network: false, support };
    const confined = await confineStdio(anyPathServer(), options);
    // What another server sharing the project does between the plan and the mount.
    fs.renameSync(granted, `${granted}-moved`);
    fs.symlinkSync('/etc', granted);
    expect(() => confined.openDescriptors()).toThrow(expect.objectContaining({ code: 'folder-changed' }));
  });

  it('a folder ABOVE the granted one swapped for a symlink is caught too (the kernel’s name for what was opened)', async () => {
    const { shared, granted } = project();
    const options = { serverId: 'race-above', roots: [{ path: granted, mode: 'read-only' as const }], dataDir: tempDir('race-data-'), network: false, support };
    const confined = await confineStdio(anyPathServer(), options);
    // The very folder the plan saw (same inode), but now reached through a symlink in its path: the
    // granted folder moved elsewhere and its old parent replaced by a symlink to where it now lives.
    const elsewhere = tempDir('race-elsewhere-');
    fs.renameSync(granted, path.join(elsewhere, 'granted'));
    fs.rmSync(shared, { recursive: true });
    fs.symlinkSync(elsewhere, shared);
    expect(() => confined.openDescriptors()).toThrow(/reached through a symlink/);
  });
});

/**
 * Runs a confined one-shot program as the app spawns one (its descriptors, then pasta's pipe where
 * it has a network of its own) and resolves with its stdout once it has ended.
 */
async function runToEnd(confined: Awaited<ReturnType<typeof confineStdio>>): Promise<string> {
  const { spawn } = await import('node:child_process');
  const opened = confined.openDescriptors();
  // The start's own pipes (a file view's control socket) after its descriptors, and its handshake once it runs.
  const pipes = Array.from({ length: opened.pipes ?? 0 }, () => 'pipe' as const);
  const child = spawn(confined.config.command, confined.config.args, { env: confined.config.env, stdio: ['ignore', 'pipe', 'pipe', ...opened.fds, ...pipes] });
  const first = 3 + opened.fds.length;
  opened.close();
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const stop = await opened.whenSpawned?.(child.stdio.slice(first) as Writable[], child.pid);
  await closed;
  stop?.();
  return out;
}

describe.runIf(support.kind === 'bwrap' && support.disableUserns)('a server allowed sandboxes of its own (user namespaces, for a browser)', () => {
  // What a user namespace of its own gives it (every capability there) must not reach past ours:
  // mount calls and netfilter stay refused by the filter, and what was hidden stays hidden.
  const script = (outside: string) => `
import ctypes, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def err(): return os.strerror(ctypes.get_errno())
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
print('unshare', 'ok' if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) == 0 else 'refused: ' + err())
print('mount tmpfs', 'MOUNTED' if libc.mount(b'none', b'/tmp', b'tmpfs', 0, None) == 0 else 'refused: ' + err())
print('bind the root', 'MOUNTED' if libc.mount(b'/', b'/tmp', None, 4096, None) == 0 else 'refused: ' + err())
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 12); print('netfilter OPENED')
except OSError as e:
    print('netfilter refused:', os.strerror(e.errno))
print('outside', 'SEEN' if os.path.exists(${JSON.stringify(outside)}) else 'hidden')
`;

  it('may make a user namespace, and still mounts nothing, opens no netfilter socket and sees nothing outside its grants', async () => {
    const outside = tempDir('own-sandboxes-outside-');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'not granted');
    for (const ownSandboxes of [true, false]) {
      const confined = await confineStdio(
        { type: 'stdio', command: '/usr/bin/python3', args: ['-c', script(path.join(outside, 'secret.txt'))], env: {} },
        { serverId: 'own-sandboxes', roots: [], dataDir: tempDir('own-sandboxes-data-'), network: false, ownSandboxes, support },
      );
      const out = await runToEnd(confined);
      await confined.release();
      const unshare = ownSandboxes ? 'unshare ok' : 'unshare refused: No space left on device';
      expect(out, `own sandboxes ${ownSandboxes}`).toBe(
        `${unshare}\nmount tmpfs refused: Operation not permitted\nbind the root refused: Operation not permitted\nnetfilter refused: Operation not permitted\noutside hidden\n`,
      );
    }
  });
});

describe.runIf(support.kind === 'bwrap')('Unix sockets with the network off', () => {
  it('may be made (browsers need them), but no abstract socket outside is reachable: the namespace is its own', async () => {
    const abstract = `mcp-roots-netoff-${process.pid}`;
    const net = await import('node:net');
    const listener = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen({ path: `\0${abstract}` }, resolve));
    try {
      const script = `
import socket
s = socket.socket(socket.AF_UNIX)
print('made')
try:
    s.connect('\\0${abstract}'); print('CONNECTED')
except OSError as e:
    print('refused', e.errno)
`;
      const confined = await confineStdio(
        { type: 'stdio', command: '/usr/bin/python3', args: ['-c', script], env: {} },
        { serverId: 'netoff', roots: [], dataDir: tempDir('netoff-data-'), network: false, support },
      );
      const out = await runToEnd(confined);
      expect(out).toMatch(/^made\nrefused \d+\n$/);
    } finally {
      listener.close();
    }
  });
});

describe.runIf(support.kind === 'bwrap')('Unix sockets with the network on', () => {
  // Through pasta (a network namespace of its own) sockets may be made and the host's abstract
  // names are not there; without pasta the filter refuses socket(AF_UNIX) itself. Either way the
  // abstract socket this test listens on outside is out of reach, proved from inside.
  it(support.privateNetwork?.pasta ? 'may be made, and no abstract socket outside is reachable (pasta: a namespace of its own)' : 'cannot be made (no pasta here: the host network is shared)', async () => {
    const abstract = `mcp-roots-neton-${process.pid}`;
    const net = await import('node:net');
    const listener = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen({ path: `\0${abstract}` }, resolve));
    try {
      const script = `
import socket
try:
    s = socket.socket(socket.AF_UNIX)
except OSError as e:
    print('not made', e.errno); raise SystemExit
print('made')
try:
    s.connect('\\0${abstract}'); print('CONNECTED')
except OSError as e:
    print('refused', e.errno)
`;
      const confined = await confineStdio(
        { type: 'stdio', command: '/usr/bin/python3', args: ['-c', script], env: {} },
        { serverId: 'neton', roots: [], dataDir: tempDir('neton-data-'), network: true, support },
      );
      const out = await runToEnd(confined);
      expect(out).toMatch(support.privateNetwork?.pasta ? /^made\nrefused \d+\n$/ : /^not made 1\n$/);
    } finally {
      listener.close();
    }
  });

  it('sharing the host network (no pasta), has stream pairs for its children, and no datagram pair to point at an abstract name outside', async () => {
    const abstract = `mcp-roots-dgram-${process.pid}`;
    const listener = await listenDatagrams(abstract);
    try {
      const script = `
import socket, os
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
a.send(b'x'); print('stream pair', b.recv(1).decode())
for kind, name in ((socket.SOCK_DGRAM, 'dgram'), (socket.SOCK_RAW, 'raw')):
    try:
        c, d = socket.socketpair(socket.AF_UNIX, kind)
        c.sendto(b'escaped', '\\0${abstract}'); print(name, 'SENT')
    except OSError as e:
        print(name, 'refused', e.errno)
`;
      const shared = { ...support, privateNetwork: { reason: 'test: the host network shared' } };
      const confined = await confineStdio(
        { type: 'stdio', command: '/usr/bin/python3', args: ['-c', script], env: {} },
        { serverId: 'dgram', roots: [], dataDir: tempDir('dgram-data-'), network: true, support: shared },
      );
      expect(confined.unixSocketsRefused).toBeDefined();
      expect(await runToEnd(confined)).toBe('stream pair x\ndgram refused 1\nraw refused 1\n');
      expect(listener.received()).toBe(0);
    } finally {
      listener.close();
    }
  });

  it.runIf(support.privateNetwork?.pasta !== undefined)("pasta ends with the server: it holds the namespace open and would not quit by itself", async () => {
    const server = await startConfined(anyPathServer(), { serverId: 'pasta-ends', roots: [], dataDir: tempDir('pasta-ends-data-'), network: true, support });
    // pasta joins the namespace of the process that is bwrap (with a file view, the helper's holder).
    const sandboxPid = await server.confined.sandboxPid(server.pid);
    const namesHolder = () =>
      fs.readdirSync('/proc').filter((pid) => {
        try {
          return /^\d+$/.test(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`/proc/${sandboxPid}/ns/net`);
        } catch {
          return false;
        }
      });
    expect(namesHolder()).toHaveLength(1);
    await server.close();
    await waitFor(() => namesHolder().length === 0, { what: "the server's pasta to end with it" });
  });
});
