// The registry's commands, on top of the one writer: what the app, `serve`, the CLI and an import
// may ask of it. Paths are canonicalized here, before an edit is queued (the realpath is async and
// the queue is not the place to wait for the disk); masked secrets coming back from a UI are put
// back here, against the stored config.
import type { GrantMode, Registry, RootId, RootRecord, ServerId, ServerRecord, Settings } from '../../../shared/domain.js';
import { CodedError, toHostError, type ErrorCode } from '../../../shared/result.js';
import { unmaskTransport } from '../../../shared/secrets.js';
import { canonicalizeRoot, type CanonicalRoot } from './file-uri.js';
import { setWritableByChoice } from './grant-opt-ins.js';
import * as edits from './registry-edits.js';
import { RegistryModel } from './registry-model.js';
import type { StoreNotice } from './registry-store.js';
import type { SecretCodec } from './secret-codec.js';
import type { WriterKind } from './registry-writer.js';

export interface AddedRoots {
  added: RootRecord[];
  failed: { input: string; code: ErrorCode; message: string }[];
}

export class RegistryCommands {
  constructor(readonly model: RegistryModel) {}

  async addRoots(paths: readonly string[]): Promise<AddedRoots> {
    const failed: AddedRoots['failed'] = [];
    const candidates: CanonicalRoot[] = [];
    for (const input of paths) {
      try {
        candidates.push(await canonicalizeRoot(input));
      } catch (error) {
        failed.push({ input, ...toHostError(error) });
      }
    }
    const { added, duplicates } = await this.model.apply(edits.addRoots(candidates));
    for (const duplicate of duplicates) {
      failed.push({ input: duplicate.path, code: 'duplicate', message: `"${duplicate.canonicalPath}" is already a root.` });
    }
    return { added, failed };
  }

  removeRoots(rootIds: RootId[]): Promise<edits.Removal> {
    return this.model.apply(edits.removeRoots(rootIds));
  }

  /**
   * The folder of a root now resolves elsewhere (its path, or a parent, was swapped for a symlink)
   * and is hidden until the user looks and confirms: re-resolve the picked path and adopt it.
   */
  async acceptRootTarget(rootId: RootId): Promise<void> {
    const root = this.model.current.roots.find((candidate) => candidate.id === rootId);
    if (!root) throw new CodedError('not-found', `No root with id ${rootId}.`);
    const { canonicalPath } = await canonicalizeRoot(root.path);
    await this.model.apply(edits.retargetRoot(rootId, canonicalPath));
  }

  renameRoot(rootId: RootId, name: string): Promise<void> {
    return this.model.apply(edits.renameRoot(rootId, name));
  }

  addServer(input: edits.ServerInput): Promise<ServerRecord> {
    return this.model.apply(edits.addServer(input));
  }

  /** A UI sends masked secrets back unchanged: those keep their stored values. */
  updateServer(serverId: ServerId, patch: Partial<edits.ServerInput>): Promise<ServerRecord> {
    return this.model.apply((registry) => {
      const previous = edits.findServer(registry, serverId);
      const transport = patch.transport ? unmaskTransport(patch.transport, previous.transport) : undefined;
      return edits.updateServer(serverId, { ...patch, ...(transport ? { transport } : {}) })(registry);
    });
  }

  replaceArgumentFolder(serverId: ServerId, folder: string): Promise<ServerRecord> {
    return this.model.apply(edits.replaceArgumentFolder(serverId, folder));
  }

  removeServer(serverId: ServerId): Promise<edits.Removal> {
    return this.model.apply(edits.removeServer(serverId));
  }

  setGrants(serverIds: ServerId[], rootIds: RootId[], granted: boolean, mode?: GrantMode): Promise<edits.GrantChange> {
    return this.model.apply(edits.setGrants(serverIds, rootIds, granted, mode));
  }

  setWritableByChoice(serverId: ServerId, rootId: RootId, names: readonly string[]): Promise<ServerRecord> {
    return this.model.apply(setWritableByChoice(serverId, rootId, names));
  }

  updateSettings(patch: Partial<Settings>): Promise<void> {
    return this.model.apply(edits.updateSettings(patch));
  }

  /** Puts back what a removal or a revoke took away (see edits.restoreRemoval for what is not). */
  restore(removal: edits.Removal, revokedSince?: ReadonlySet<string>): Promise<{ restored: number }> {
    return this.model.apply(edits.restoreRemoval(removal, revokedSince));
  }
}

/**
 * A one-shot writer: the CLI, an import run, a test standing in for another process. It opens the
 * registry (repairing it if needed), edits through the same one-writer queue as the app, and closes.
 */
export class RegistryEditor extends RegistryCommands {
  private constructor(
    model: RegistryModel,
    /** What opening found worth saying (a migration, a recovered file). */
    readonly notices: readonly StoreNotice[],
  ) {
    super(model);
  }

  /** `writer`: who the file will say wrote it (registry-writer.ts); none, and it names no one. */
  static async open(configDir: string, options: { secrets?: SecretCodec; writer?: WriterKind } = {}): Promise<RegistryEditor> {
    const model = new RegistryModel({ configDir, secrets: options.secrets, ...(options.writer ? { writer: options.writer } : {}) });
    const notices = await model.open();
    return new RegistryEditor(model, notices);
  }

  get registry(): Registry {
    return this.model.current;
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
