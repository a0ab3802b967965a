// The CLI's one door to the registry: the one-writer RegistryEditor for changes (the same queue and
// lock the app uses), and views in which each root is probed once, when first asked. The CLI runs
// no servers: their state is what a running app or `serve` publishes (host/live-state.ts), or unknown.
import type { GrantMode, Notice, Registry, RootAccess, RootId, RootView, ServerId, ServerRecord } from '../../shared/domain.js';
import type { SecretPlacement } from '../../shared/secrets.js';
import type { ProxyStatus } from '../host/status/proxy-status.js';
import type { LiveApps } from '../host/status/live-state.js';
import type { AddedRoots } from '../host/registry/registry-commands.js';
import type { GrantChange, ServerInput } from '../host/registry/registry-edits.js';

export type { ServerInput };

/** What one command sees and may change. Reads always reflect the edits made so far. */
export interface RegistrySession {
  readonly configPath: string;
  /** The registry with secrets as stored for this process: clear, or sealed where the desktop app sealed them. */
  registry(): Registry;
  /** Every root with its accessibility. */
  rootViews(): RootView[];
  /** Granted AND accessible AND sharing AND enabled: what each server is told. */
  effectiveRootIds(serverId: ServerId): RootId[];
  /** The `mcp-roots proxy` sessions running now (hosts started them), from their status files. */
  proxies(): Promise<ProxyStatus[]>;
  /** The running app and `serve` processes on this registry and what each says of its servers. */
  liveApps(): Promise<LiveApps>;
  /** What opening the registry found worth saying (a migration, a recovered file). */
  notices(): Pick<Notice, 'level' | 'code' | 'message'>[];
  /** Where each secret of a server is kept (the OS keychain, in clear, sealed by the desktop app). */
  secretPlacements(serverId: ServerId): SecretPlacement[];
  addRoots(paths: string[]): Promise<AddedRoots>;
  removeRoots(rootIds: RootId[]): Promise<void>;
  renameRoot(rootId: RootId, name: string): Promise<void>;
  addServer(input: ServerInput): Promise<ServerRecord>;
  updateServer(serverId: ServerId, patch: Partial<ServerInput>): Promise<void>;
  removeServer(serverId: ServerId): Promise<void>;
  setGrants(serverIds: ServerId[], rootIds: RootId[], granted: boolean, mode?: GrantMode): Promise<GrantChange>;
  /** The protected names left writable in one grant, by the person's choice (none: all protected). */
  setWritableByChoice(serverId: ServerId, rootId: RootId, names: readonly string[]): Promise<void>;
}

/** Opens the registry in `configDir`, runs `use`, and closes it (every edit on disk) whatever happens. */
export async function withRegistrySession<T>(configDir: string, use: (session: RegistrySession) => Promise<T>): Promise<T> {
  // Loaded on first use: help, --version, completion and usage errors never pay for the registry.
  const [{ RegistryEditor }, { probeRoot }, { computeExposure }, { pathToRootUri }, { rootViewsOnce }, { listLiveProxies }, { openRegistryCodec }, { secretPlacements }, { readLiveApps }] =
    await Promise.all([
      import('../host/registry/registry-commands.js'),
      import('../host/access/access-probe.js'),
      import('../host/access/exposure.js'),
      import('../host/registry/file-uri.js'),
      import('../host/status/host-state.js'),
      import('../host/status/proxy-status.js'),
      import('../host/registry/keyring-codec.js'),
      import('../host/registry/secret-codec.js'),
      import('../host/status/live-state.js'),
    ]);
  // The OS keychain where there is one: secrets are sealed, and `status` says where each is kept.
  const secrets = await openRegistryCodec(configDir);
  const editor = await RegistryEditor.open(configDir, { secrets, writer: 'cli' });
  // One probe per folder per command: a command is over before a folder's state is worth a second look.
  const probed = new Map<string, RootAccess>();
  const accessOf = (rootId: RootId): RootAccess => {
    const root = editor.registry.roots.find((candidate) => candidate.id === rootId);
    if (!root) return { state: 'checking', checkedAt: 0 };
    let access = probed.get(root.canonicalPath);
    if (!access) {
      access = probeRoot(root.canonicalPath);
      probed.set(root.canonicalPath, access);
    }
    return access;
  };
  const session: RegistrySession = {
    configPath: editor.model.store.path,
    registry: () => editor.registry,
    rootViews: () => rootViewsOnce(editor.registry, pathToRootUri, accessOf),
    effectiveRootIds: (serverId) => [...(computeExposure(editor.registry, accessOf).get(serverId)?.rootIds ?? [])],
    proxies: () => listLiveProxies(configDir),
    liveApps: () => readLiveApps(configDir),
    notices: () => editor.notices.map(({ level, code, message }) => ({ level, code, message })),
    secretPlacements: (serverId) => {
      const server = editor.registry.servers.find((candidate) => candidate.id === serverId);
      return server ? secretPlacements(server.transport, secrets) : [];
    },
    addRoots: (paths) => editor.addRoots(paths),
    removeRoots: async (rootIds) => {
      await editor.removeRoots(rootIds);
    },
    renameRoot: (rootId, name) => editor.renameRoot(rootId, name),
    addServer: (input) => editor.addServer(input),
    updateServer: async (serverId, patch) => {
      await editor.updateServer(serverId, patch);
    },
    removeServer: async (serverId) => {
      await editor.removeServer(serverId);
    },
    setGrants: (serverIds, rootIds, granted, mode) => editor.setGrants(serverIds, rootIds, granted, mode),
    setWritableByChoice: async (serverId, rootId, names) => {
      await editor.setWritableByChoice(serverId, rootId, names);
    },
  };
  try {
    return await use(session);
  } finally {
    await editor.close();
  }
}
