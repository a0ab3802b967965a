// "Grant this folder" for a folder named by path (a server's argument, a path the sandbox blocked):
// the root for it when there is one, else a new root ('roots.add'), then one 'grants.set' for
// exactly that server and that root. Nothing wider: never a parent, never another server.
import { useCallback, useState } from 'react';
import type { GrantMode, RootView, ServerId } from '../../shared/domain.js';
import type { ErrorCode, HostError, Result } from '../../shared/result.js';
import { callSafely } from './call-safely.js';
import type { HostClient } from './host-client.js';
import { useHost } from './host-context.js';

/** The root that is this folder (as picked, or its resolved path). */
export function rootForFolder(roots: readonly RootView[], folder: string): RootView | undefined {
  const bare = folder.length > 1 ? folder.replace(/[\\/]+$/, '') : folder;
  return roots.find((root) => root.path === bare || root.canonicalPath === bare);
}

export interface GrantFolder {
  run(serverId: ServerId, folder: string, mode?: GrantMode): Promise<Result<null>>;
  /** The folder being granted right now. */
  pending: string | undefined;
  error: HostError | undefined;
  clearError(): void;
}

export function useGrantFolder(): GrantFolder {
  const { client, store } = useHost();
  const [pending, setPending] = useState<string | undefined>();
  const [error, setError] = useState<HostError | undefined>();

  const run = useCallback(
    async (serverId: ServerId, folder: string, mode?: GrantMode): Promise<Result<null>> => {
      setPending(folder);
      setError(undefined);
      const result = await grantFolder(client, store.getSnapshot().state?.roots ?? [], serverId, folder, mode);
      setPending(undefined);
      if (!result.ok) setError(result.error);
      return result;
    },
    [client, store],
  );

  const clearError = useCallback(() => setError(undefined), []);
  return { run, pending, error, clearError };
}

async function grantFolder(client: HostClient, roots: readonly RootView[], serverId: ServerId, folder: string, mode: GrantMode | undefined): Promise<Result<null>> {
  let root = rootForFolder(roots, folder);
  if (!root) {
    const added = await callSafely(client, 'roots.add', { paths: [folder] });
    if (!added.ok) return added;
    root = added.value.added[0];
    if (!root) {
      // Already a root (another window added it, or it is one under another spelling): ask afresh.
      const fresh = await callSafely(client, 'state.get', {});
      root = fresh.ok ? rootForFolder(fresh.value.roots, folder) : undefined;
      const failure = added.value.failed[0];
      if (!root) return { ok: false, error: { code: (failure?.code ?? 'internal') as ErrorCode, message: failure?.message ?? folder } };
    }
  }
  const granted = await callSafely(client, 'grants.set', { serverIds: [serverId], rootIds: [root.id], granted: true, ...(mode ? { mode } : {}) });
  return granted.ok ? { ok: true, value: null } : granted;
}
