// Who sees what, kept current: each registry snapshot and each accessibility change recomputes
// every server's effective roots (exposure.ts) and reports the servers whose view changed. The app
// and the proxy both consume it; a proxy scopes it to its one server, so it watches only the
// folders granted to that server (a registry of 10,000 folders costs it a handful of watches).
import { EventEmitter } from 'node:events';
import type { Registry, RootAccess, RootId, ServerId } from '../../../shared/domain.js';
import { AccessMonitor, type AccessMonitorOptions } from './access-monitor.js';
import { computeExposure, NOTHING, sameExposure, type Exposure } from './exposure.js';
import { RootViews } from './root-views.js';

export interface ExposureChange {
  /** Servers whose effective roots changed (connected or not). */
  changed: ServerId[];
  before: ReadonlyMap<ServerId, Exposure>;
  after: ReadonlyMap<ServerId, Exposure>;
}

export interface ExposureTrackerOptions {
  monitor?: AccessMonitorOptions;
  /** Only this server matters (a proxy): only its granted folders are watched. */
  scope?: ServerId;
}

/** `change`: an accessibility change altered some server's view. `access`: any accessibility change. */
export class ExposureTracker extends EventEmitter<{ change: [ExposureChange]; access: [] }> {
  readonly views = new RootViews();
  private readonly monitor: AccessMonitor;
  private registry: Registry | undefined;
  private exposure: ReadonlyMap<ServerId, Exposure> = new Map();
  private monitored: readonly { id: RootId; canonicalPath: string }[] = [];
  /** Bumped on every accessibility change: views built from the access states know they are stale. */
  accessVersion = 0;

  constructor(private readonly options: ExposureTrackerOptions = {}) {
    super();
    this.monitor = new AccessMonitor(options.monitor);
    this.monitor.on('change', () => {
      this.accessVersion++;
      this.emit('access');
      if (!this.registry) return;
      const change = this.recompute(this.registry);
      if (change.changed.length > 0) this.emit('change', change);
    });
  }

  get(serverId: ServerId): Exposure {
    return this.exposure.get(serverId) ?? NOTHING;
  }

  access(rootId: RootId): RootAccess {
    return this.monitor.get(rootId);
  }

  /** Re-probes now (the user's "check again"). */
  recheck(rootIds?: readonly RootId[]): void {
    this.monitor.recheck(rootIds);
  }

  get watcherCount(): number {
    return this.monitor.watcherCount;
  }

  /**
   * A new registry snapshot: follow its folders, recompute, and return what changed (the caller
   * acts on it in order with the registry change; `change` is emitted for accessibility changes only).
   */
  update(registry: Registry): ExposureChange {
    this.registry = registry;
    const wanted = this.foldersToWatch(registry);
    if (!sameLocations(this.monitored, wanted)) {
      this.monitored = wanted;
      this.monitor.setRoots(wanted);
    }
    return this.recompute(registry);
  }

  stop(): void {
    this.monitor.stop();
  }

  private foldersToWatch(registry: Registry): readonly { id: RootId; canonicalPath: string }[] {
    const scope = this.options.scope;
    if (scope === undefined) return registry.roots;
    const granted = registry.grants[scope] ?? {};
    return registry.roots.filter((root) => Object.hasOwn(granted, root.id));
  }

  private recompute(registry: Registry): ExposureChange {
    const scoped = this.options.scope === undefined ? registry : scopeTo(registry, this.options.scope);
    const next = computeExposure(scoped, (id) => this.monitor.get(id), (p) => this.views.uriOf(p));
    const before = this.exposure;
    const changed: ServerId[] = [];
    for (const [serverId, exposure] of next) {
      const previous = before.get(serverId);
      // Unchanged views keep their identity: consumers compare by reference.
      if (previous && sameExposure(previous, exposure)) next.set(serverId, previous);
      else changed.push(serverId);
    }
    for (const serverId of before.keys()) if (!next.has(serverId) && before.get(serverId) !== NOTHING) changed.push(serverId);
    this.exposure = next;
    return { changed, before, after: next };
  }
}

function scopeTo(registry: Registry, serverId: ServerId): Registry {
  const servers = registry.servers.filter((server) => server.id === serverId);
  return servers.length === registry.servers.length ? registry : { ...registry, servers };
}

/** True when two root lists watch the same folders (a rename or grant changes neither). */
function sameLocations(a: readonly { id: RootId; canonicalPath: string }[], b: readonly { id: RootId; canonicalPath: string }[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]?.id !== b[i]?.id || a[i]?.canonicalPath !== b[i]?.canonicalPath) return false;
  }
  return true;
}

