// Consent requests: a server asked for roots while nothing is granted to it. It was answered []
// at once; the request waits for the user, and is answered by a grant or dismissed.
// "Not now" snoozes a server's requests until the app restarts (its own restarts do not bring
// them back); "Don't ask again" is the server's persisted `askForFolders: false`.
import { randomUUID } from 'node:crypto';
import type { ConsentRequest, Registry, ServerId } from '../../../shared/domain.js';
import { CodedError } from '../../../shared/result.js';

export class ConsentRequests {
  private requests: ConsentRequest[] = [];
  private readonly snoozed = new Set<ServerId>();

  list(): ConsentRequest[] {
    return this.requests;
  }

  /** Raises one request per server while it has no grant. Returns whether a new one was raised. */
  raiseIfUngranted(serverId: ServerId, registry: Registry): boolean {
    if (hasGrants(registry, serverId) || !asks(registry, serverId) || this.snoozed.has(serverId)) return false;
    if (this.requests.some((request) => request.serverId === serverId)) return false;
    this.requests = [...this.requests, { id: randomUUID(), serverId, at: Date.now() }];
    return true;
  }

  /** Drops requests answered by a grant, silenced, or whose server is gone. Returns whether any went. */
  settle(registry: Registry): boolean {
    const servers = new Set(registry.servers.map((server) => server.id));
    for (const serverId of this.snoozed) if (!servers.has(serverId)) this.snoozed.delete(serverId);
    const open = this.requests.filter((request) => servers.has(request.serverId) && !hasGrants(registry, request.serverId) && asks(registry, request.serverId));
    if (open.length === this.requests.length) return false;
    this.requests = open;
    return true;
  }

  dismiss(requestId: string): void {
    const request = this.requests.find((candidate) => candidate.id === requestId);
    if (!request) throw new CodedError('not-found', `No consent request ${requestId}.`);
    this.requests = this.requests.filter((candidate) => candidate !== request);
    this.snoozed.add(request.serverId);
  }
}

function hasGrants(registry: Registry, serverId: ServerId): boolean {
  return Object.keys(registry.grants[serverId] ?? {}).length > 0;
}

/** Whether a server's requests reach the person: not with sharing off (it is offered no roots at all) or set not to ask. */
function asks(registry: Registry, serverId: ServerId): boolean {
  const server = registry.servers.find((candidate) => candidate.id === serverId);
  return server !== undefined && server.sharing && server.askForFolders !== false;
}
