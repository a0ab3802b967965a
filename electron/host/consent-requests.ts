// Consent requests: a server asked for roots while nothing is granted to it. It was answered []
// at once; the request waits for the user, and is answered by a grant or dismissed.
import { randomUUID } from 'node:crypto';
import type { ConsentRequest, Registry, ServerId } from '../../shared/domain.js';
import { CodedError } from '../../shared/result.js';

export class ConsentRequests {
  private requests: ConsentRequest[] = [];

  list(): ConsentRequest[] {
    return this.requests;
  }

  /** Raises one request per server while it has no grant. Returns whether a new one was raised. */
  raiseIfUngranted(serverId: ServerId, registry: Registry): boolean {
    if (hasGrants(registry, serverId)) return false;
    if (this.requests.some((request) => request.serverId === serverId)) return false;
    this.requests = [...this.requests, { id: randomUUID(), serverId, at: Date.now() }];
    return true;
  }

  /** Drops requests answered by a grant (or whose server is gone). Returns whether any went. */
  settle(registry: Registry): boolean {
    const servers = new Set(registry.servers.map((server) => server.id));
    const open = this.requests.filter((request) => servers.has(request.serverId) && !hasGrants(registry, request.serverId));
    if (open.length === this.requests.length) return false;
    this.requests = open;
    return true;
  }

  dismiss(requestId: string): void {
    const before = this.requests.length;
    this.requests = this.requests.filter((request) => request.id !== requestId);
    if (this.requests.length === before) throw new CodedError('not-found', `No consent request ${requestId}.`);
  }
}

function hasGrants(registry: Registry, serverId: ServerId): boolean {
  return Object.keys(registry.grants[serverId] ?? {}).length > 0;
}
