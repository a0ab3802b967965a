// The only place that calls ipcMain.handle. Every channel goes through `handleTrusted`: the sender
// is checked first, then the payload is zod-parsed (inside dispatch), then the handler runs.
// A stranger gets a typed 'unauthorized' Result and nothing runs.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { channels } from '../../shared/contract.js';
import { fail, type Result } from '../../shared/result.js';
import { dispatch, hostHandlers, type ContractHandlers } from '../host/contract-handlers.js';
import type { RootsHost } from '../host/roots-host.js';
import { importHandlers } from '../import/import-handlers.js';
import { dispatchDesktop, type DesktopDeps } from './desktop-channels.js';
import { desktopChannelNames } from '../preload/ipc-channel-names.js';
import type { CallConfirmation } from './confirm-risky-calls.js';
import type { SenderCheck } from './trusted-sender.js';

type IpcRegistry = Pick<IpcMain, 'handle' | 'removeHandler'>;
type Unregister = () => void;

/** Every channel the desktop app answers: the host's own and the import feature's. */
const handlers: ContractHandlers = { ...hostHandlers, ...importHandlers };

/** `confirm` runs after the sender check and before dispatch: the person's yes for risky calls. */
export function registerContractHandlers(
  ipcMain: IpcRegistry,
  host: RootsHost,
  isTrustedSender: SenderCheck,
  confirm?: CallConfirmation,
): Unregister {
  for (const channel of channels) {
    handleTrusted(ipcMain, channel, isTrustedSender, async (payload) => (await confirm?.(channel, payload)) ?? dispatch(handlers, host, channel, payload));
  }
  return () => channels.forEach((channel) => ipcMain.removeHandler(channel));
}

export function registerDesktopHandlers(ipcMain: IpcRegistry, deps: DesktopDeps, isTrustedSender: SenderCheck): Unregister {
  for (const channel of desktopChannelNames) {
    handleTrusted(ipcMain, channel, isTrustedSender, (payload) => dispatchDesktop(deps, channel, payload));
  }
  return () => desktopChannelNames.forEach((channel) => ipcMain.removeHandler(channel));
}

function handleTrusted(
  ipcMain: IpcRegistry,
  channel: string,
  isTrustedSender: SenderCheck,
  run: (payload: unknown) => Promise<Result<unknown>>,
): void {
  ipcMain.handle(channel, async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<Result<unknown>> => {
    if (!safeCheck(isTrustedSender, event)) {
      console.warn(`Refused IPC "${channel}" from an untrusted sender (${describeSender(event)}).`);
      return fail('unauthorized', 'This caller may not talk to the host.');
    }
    // The preload always sends exactly one argument; anything else did not come through it.
    if (args.length > 1) return fail('invalid-input', `Expected one argument, got ${args.length}.`);
    return run(args[0]);
  });
}

function safeCheck(isTrustedSender: SenderCheck, event: IpcMainInvokeEvent): boolean {
  try {
    return isTrustedSender(event);
  } catch {
    return false;
  }
}

function describeSender(event: IpcMainInvokeEvent): string {
  try {
    return `frame ${event.processId}:${event.frameId}, ${event.senderFrame?.url.slice(0, 200) ?? 'frame gone'}`;
  } catch {
    return 'unknown frame';
  }
}
