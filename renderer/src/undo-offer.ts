// The one change that can be undone right now: a removal or a revoke offers its ticket here, and the
// toast shows the newest (an older offer gives way; its ticket stays valid on the host a while).
import { useSyncExternalStore } from 'react';

export interface UndoOffer {
  undoId: string;
  /** What was done, in the person's language: "Removed website". */
  text: string;
  /** Tells offers apart: a newer one replaces it. */
  seq: number;
}

let current: UndoOffer | undefined;
let seq = 0;
const listeners = new Set<() => void>();

function publish(next: UndoOffer | undefined): void {
  current = next;
  for (const listener of listeners) listener();
}

/** Offers an undo for a change the host returned a ticket for (none: nothing to undo). */
export function offerUndo(undoId: string | null | undefined, text: string): void {
  if (undoId) publish({ undoId, text, seq: ++seq });
}

export function withdrawUndo(offer: UndoOffer): void {
  if (current?.seq === offer.seq) publish(undefined);
}

export function useUndoOffer(): UndoOffer | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
