// Interpreter shims of version managers: what a shim execs lies beside it, not in it. A pyenv shim
// (`<root>/shims/python3`, written by `pyenv rehash`) runs `<root>/libexec/pyenv exec python3 …`,
// which reads the version (`<root>/version`, a `.python-version`, or PYENV_VERSION) and execs
// `<root>/versions/<version>/bin/python3`. Binding the shim's folder alone, the server did not start
// ("libexec/pyenv: No such file or directory"). So for a pyenv shim the sandbox binds, read-only,
// pyenv's own code (libexec, plugins), its global version file and the installed versions (program
// code only: every version, since which one runs is decided inside from files and variables). The
// shims folder itself is bound as the command's own folder already.
// Only pyenv is recognized (its layout is covered by a fixture); others (asdf, nvm, volta) are not yet.
import fs from 'node:fs';
import path from 'node:path';

/** The pyenv root a command lies in as a shim, if it is one: `<root>/shims/<name>` beside `<root>/libexec/pyenv`. */
export function pyenvRootOf(command: string): string | undefined {
  const shims = path.dirname(command);
  if (path.basename(shims) !== 'shims') return undefined;
  const root = path.dirname(shims);
  return fs.existsSync(path.join(root, 'libexec', 'pyenv')) ? root : undefined;
}

/** What the shim at `command` execs, to bind read-only; empty for anything that is not a known shim. */
export function shimTargets(command: string): string[] {
  const root = pyenvRootOf(command);
  if (!root) return [];
  return ['libexec', 'plugins', 'version', 'versions'].map((entry) => path.join(root, entry)).filter((entry) => fs.existsSync(entry));
}
