// Which folders a server's command line or environment names, and whether each is granted to it,
// for the UIs and `status`. Looked up once per transport object (the registry replaces a transport
// when it changes): a state snapshot of 100 servers does not stat their arguments every time.
import fs from 'node:fs';
import type { GrantMode, RootId, RootRecord, TransportConfig } from '../../../shared/domain.js';
import type { ArgumentFolderView } from '../../../shared/sandbox.js';
import { foldersInArguments, type ArgumentFolder } from '../sandbox/argument-folders.js';

interface Found extends ArgumentFolder {
  /** Its realpath: what a root's canonicalPath is compared with. */
  canonicalPath: string;
}

const found = new WeakMap<TransportConfig, readonly Found[]>();

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function foldersOf(transport: TransportConfig): readonly Found[] {
  if (transport.type !== 'stdio') return [];
  let folders = found.get(transport);
  if (!folders) {
    folders = foldersInArguments({ args: transport.args, env: transport.env, cwd: transport.cwd }, isDirectory).map((folder) => ({
      ...folder,
      canonicalPath: realpathOr(folder.path),
    }));
    found.set(transport, folders);
  }
  return folders;
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/** The folders a transport names, each marked granted when a granted root is that folder. */
export function argumentFolderViews(
  transport: TransportConfig,
  roots: readonly RootRecord[],
  granted: Readonly<Record<RootId, GrantMode>> | undefined,
): ArgumentFolderView[] {
  const folders = foldersOf(transport);
  if (folders.length === 0) return [];
  const grantedPaths = new Set(roots.filter((root) => granted && Object.hasOwn(granted, root.id)).map((root) => root.canonicalPath));
  return folders.map(({ path, source, canonicalPath }) => ({ path, source, granted: grantedPaths.has(canonicalPath) }));
}
