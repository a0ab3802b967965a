// Undo from a toast: what each recent removal or revoke took away (or a grant made: #30 item 1, a
// bulk Share taken back), and every grant revoked since,
// so an undo never brings back a grant the person revoked after the removal (here, from the CLI or
// another process: every registry change is watched, whoever made it). The edits are pure
// (registry-edits.ts); this keeps the memory. In memory only: an undo is offered for a moment.
import { randomUUID } from 'node:crypto';
import { CodedError } from '../../../shared/result.js';
import type { RegistryCommands } from './registry-commands.js';
import { grantKey, revokedBetween, type Removal } from './registry-edits.js';
import type { RegistryModel } from './registry-model.js';

/** How many removals can still be undone: a toast is for the last few, not a history. */
export const UNDO_LIMIT = 20;

export class UndoBook {
  private seq = 0;
  /** When each (server, folder) grant was last revoked, by change number. */
  private readonly revokedAt = new Map<string, number>();
  private readonly entries = new Map<string, { removal: Removal; seq: number }>();

  constructor(
    model: RegistryModel,
    private readonly commands: RegistryCommands,
  ) {
    model.on('change', ({ previous, registry }) => {
      if (!previous) return;
      const revoked = revokedBetween(previous, registry);
      if (revoked.length === 0) return;
      this.seq++;
      for (const pair of revoked) this.revokedAt.set(grantKey(pair), this.seq);
    });
  }

  /** Keeps a removal that has just been applied (its own revokes are counted before this call). */
  record(removal: Removal): string | null {
    const empty = removal.kind === 'grants' ? removal.grants.length === 0 : removal.kind === 'granted' ? removal.pairs.length === 0 : false;
    if (empty) return null;
    const undoId = randomUUID();
    this.entries.set(undoId, { removal, seq: this.seq });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= UNDO_LIMIT) break;
      this.entries.delete(oldest);
    }
    return undoId;
  }

  async undo(undoId: string): Promise<{ restored: number }> {
    const entry = this.entries.get(undoId);
    if (!entry) throw new CodedError('not-found', 'That change can no longer be undone.');
    const revokedSince = new Set([...this.revokedAt].flatMap(([key, at]) => (at > entry.seq ? [key] : [])));
    const result = await this.commands.restore(entry.removal, revokedSince);
    this.entries.delete(undoId);
    return result;
  }
}
