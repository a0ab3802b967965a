// IPC names that only the desktop app has, beside the shared contract's channels. Both sides use
// them: the preload (which may import nothing from electron/main) and electron/main. Kept free of
// zod and electron so the sandboxed preload bundles it at no cost.
import type { EventName } from '../../shared/contract.js';

/**
 * Desktop-only invoke channels; their zod schemas live in electron/main/desktop-channels.ts.
 * With the shared contract's channels this is the whole IPC surface (tests/unit/electron/
 * ipc-handlers.test.ts proves it): a channel the renderer never calls is a privilege to remove.
 */
export const desktopChannelNames = ['dialog.pickFolders', 'shell.openFolder'] as const;
export type DesktopChannel = (typeof desktopChannelNames)[number];

/** The IPC channel a host event travels on (a prefix keeps it apart from invoke channels). */
export function eventChannel(name: EventName): `event.${EventName}` {
  return `event.${name}`;
}
