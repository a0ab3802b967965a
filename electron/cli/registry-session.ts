// The registry as the command line sees it: the one-writer editor for changes, and a state view
// for `status` / `list` in which each root is probed once, now. The CLI runs no servers, so their
// connection state is not something it can know.
import type { HostState } from '../../shared/domain.js';
import { probeRoot } from '../host/access-probe.js';
import { computeExposure } from '../host/exposure.js';
import { pathToRootUri } from '../host/file-uri.js';
import { buildHostState, rootViewsOnce } from '../host/host-state.js';
import { RegistryEditor } from '../host/registry-commands.js';

export class RegistrySession {
  private constructor(readonly editor: RegistryEditor) {}

  static async open(configDir: string): Promise<RegistrySession> {
    return new RegistrySession(await RegistryEditor.open(configDir));
  }

  get registry() {
    return this.editor.registry;
  }

  getState(): HostState {
    const registry = this.editor.registry;
    const access = new Map(registry.roots.map((root) => [root.id, probeRoot(root.canonicalPath)]));
    const accessOf = (rootId: string) => access.get(rootId) ?? { state: 'checking' as const, checkedAt: 0 };
    const exposure = computeExposure(registry, accessOf);
    return buildHostState(
      {
        configPath: this.editor.model.store.path,
        registry: () => registry,
        rootViews: () => rootViewsOnce(registry, pathToRootUri, accessOf),
        exposure: (serverId) => exposure.get(serverId) ?? { rootIds: [], roots: [], uris: [], folders: [] },
        status: () => undefined,
        consentRequests: () => [],
        notices: () => this.editor.notices.map((notice, i) => ({ ...notice, id: String(i), at: Date.now() })),
        proxies: () => [],
      },
      0,
    );
  }

  close(): Promise<void> {
    return this.editor.close();
  }
}
