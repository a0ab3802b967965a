// Shims of version managers: what a shim execs lies beside it, not in it, and where it looks is
// often found from HOME, which inside the sandbox is the server's private one. For each known shim
// the sandbox binds, read-only, the manager's own code and the installed versions (program code
// only: every version, since which one runs is decided inside from files and variables), tells the
// manager where its root is when HOME no longer does, and never binds its caches or HOME itself.
// The shim's own folder is bound as the command's folder already.
// - pyenv: `<root>/shims/python3` (bash, written by `pyenv rehash`) runs `<root>/libexec/pyenv exec
//   python3 …` with PYENV_ROOT set in the shim, which reads `<root>/version` (or a
//   `.python-version`, PYENV_VERSION) and execs `<root>/versions/<version>/bin/python3`. Binding
//   the shim's folder alone, the server did not start ("libexec/pyenv: No such file or directory").
// - asdf: `<data>/shims/node` is `exec <asdf>/bin/asdf exec "node" "$@"` (bash asdf, up to 0.15) or
//   `exec asdf exec "node" "$@"` with asdf found on PATH (the Go rewrite, 0.16 on). asdf finds its
//   data folder as ASDF_DATA_DIR or `$HOME/.asdf`, and the global version in `$HOME/.tool-versions`:
//   so ASDF_DATA_DIR is set, and the private HOME gets a link to the real `~/.tool-versions`
//   (bound read-only, the file alone). Bound: `<data>/installs`, `<data>/plugins`, the bash asdf's
//   `bin` and `lib`, or the Go asdf's program. Its downloads and tmp stay unbound.
// - volta: `~/.volta/bin/node` is a symlink to volta-shim (`volta setup` makes them; the install
//   puts volta-shim in `~/.volta/bin` too). volta-shim finds its home as VOLTA_HOME or
//   `$HOME/.volta`, runs volta-migrate (a write) unless `layout.vN` is there, and execs the node of
//   `tools/image/node/<version>` chosen by a project's package.json or `tools/user/platform.json`.
//   So VOLTA_HOME is set, and `tools`, `layout.v*` and `hooks.json` are bound; not its cache, log or tmp.
// - nvm needs nothing here: its node is a plain binary in `~/.nvm/versions/node/vX/bin`, and that
//   install prefix (bin, lib/node_modules with npm) is bound as any install prefix is.
// pyenv, asdf and volta are covered by fixtures of their layouts (tests/fixtures/version-managers.ts
// and tests/fixtures/python), not tried on real installs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findOnPath } from './sandbox-probe.js';

export interface ShimNeeds {
  manager: 'pyenv' | 'asdf' | 'volta';
  /** The manager's root (its data folder) the shim lies in. */
  root: string;
  /** Files and folders to bind read-only. */
  paths: string[];
  /** Programs the shim runs by name from PATH (the Go asdf): located and bound as any executable. */
  programs: string[];
  /** Variables that point the manager at its root: inside, HOME is the server's private one. */
  env: Record<string, string>;
  /** Files the manager reads from HOME (among `paths`): linked from the private HOME to the real file. */
  homeFiles: string[];
}

const existing = (paths: string[]) => paths.filter((entry) => fs.existsSync(entry));

/** The pyenv root a command lies in as a shim, if it is one: `<root>/shims/<name>` beside `<root>/libexec/pyenv`. */
export function pyenvRootOf(command: string): string | undefined {
  const shims = path.dirname(command);
  if (path.basename(shims) !== 'shims') return undefined;
  const root = path.dirname(shims);
  return fs.existsSync(path.join(root, 'libexec', 'pyenv')) ? root : undefined;
}

function pyenv(command: string): ShimNeeds | undefined {
  const root = pyenvRootOf(command);
  if (!root) return undefined;
  const paths = existing(['libexec', 'plugins', 'version', 'versions'].map((entry) => path.join(root, entry)));
  return { manager: 'pyenv', root, paths, programs: [], env: {}, homeFiles: [] };
}

function head(file: string, bytes = 1024): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, bytes, 0)).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The asdf a shim execs: an absolute path (bash asdf) or `asdf` (the Go asdf, from PATH). */
export function asdfOfShim(command: string): string | undefined {
  if (path.basename(path.dirname(command)) !== 'shims') return undefined;
  const text = head(command);
  if (!text.startsWith('#!')) return undefined;
  return /^exec\s+("?)([^\s"]*asdf)\1\s+exec\s/m.exec(text)?.[2];
}

function asdf(command: string, pathEnv: string | undefined): ShimNeeds | undefined {
  const asdfCommand = asdfOfShim(command);
  if (!asdfCommand) return undefined;
  const root = path.dirname(path.dirname(command));
  const globalVersions = path.join(os.homedir(), '.tool-versions');
  const homeFiles = existing([globalVersions]);
  let code: string[] = [];
  const programs: string[] = [];
  if (path.isAbsolute(asdfCommand)) {
    // Its script sources `<asdf>/lib` beside its `bin`.
    const asdfDir = path.dirname(path.dirname(asdfCommand));
    code = ['bin', 'lib'].map((entry) => path.join(asdfDir, entry));
  } else {
    const found = findOnPath(asdfCommand, pathEnv);
    if (found) programs.push(found);
  }
  const paths = existing([...code, path.join(root, 'installs'), path.join(root, 'plugins')]);
  return { manager: 'asdf', root, paths: [...paths, ...homeFiles], programs, env: { ASDF_DATA_DIR: root }, homeFiles };
}

/** The volta home a command lies in as a shim: `<home>/bin/<name>`, a link to (or a copy of) volta-shim, beside `<home>/tools`. */
export function voltaHomeOf(command: string): string | undefined {
  const bin = path.dirname(command);
  if (path.basename(bin) !== 'bin') return undefined;
  const root = path.dirname(bin);
  if (!fs.existsSync(path.join(root, 'tools'))) return undefined;
  let real: string;
  try {
    real = fs.realpathSync(command);
  } catch {
    return undefined;
  }
  if (path.basename(real) === 'volta-shim') return root;
  // Older installs and copies: the same file as the volta-shim beside it.
  try {
    const [shim, own] = [fs.statSync(path.join(bin, 'volta-shim')), fs.statSync(real)];
    return shim.ino === own.ino && shim.dev === own.dev ? root : undefined;
  } catch {
    return undefined;
  }
}

function volta(command: string): ShimNeeds | undefined {
  const root = voltaHomeOf(command);
  if (!root) return undefined;
  let layouts: string[] = [];
  try {
    layouts = fs.readdirSync(root).filter((name) => /^layout\.v\d+$/.test(name));
  } catch {
    // No layout file: volta-shim will try to migrate and say why it cannot.
  }
  const paths = existing([path.join(root, 'tools'), path.join(root, 'hooks.json'), ...layouts.map((name) => path.join(root, name))]);
  return { manager: 'volta', root, paths, programs: [], env: { VOLTA_HOME: root }, homeFiles: [] };
}

/** What the shim at `command` needs inside the sandbox; undefined for anything that is not a known shim. */
export function shimNeeds(command: string, pathEnv: string | undefined): ShimNeeds | undefined {
  return pyenv(command) ?? asdf(command, pathEnv) ?? volta(command);
}

/**
 * Links each file of HOME from the private HOME under the same name, to where it really is (what is
 * bound read-only), so a manager that reads `$HOME/.tool-versions` reads the person's. A link to an
 * older place is replaced (by rename, which never follows it); a file the server put there stays.
 */
export function linkHomeFiles(home: string, files: readonly string[]): void {
  for (const file of files) {
    const link = path.join(home, path.basename(file));
    try {
      const target = fs.realpathSync(file);
      const current = fs.lstatSync(link, { throwIfNoEntry: false });
      if (current && (!current.isSymbolicLink() || fs.readlinkSync(link) === target)) continue;
      const fresh = `${link}.${process.pid}.link`;
      fs.rmSync(fresh, { force: true });
      fs.symlinkSync(target, fresh);
      fs.renameSync(fresh, link);
    } catch {
      // Without it the manager says no version is set, in its own words on stderr.
    }
  }
}
