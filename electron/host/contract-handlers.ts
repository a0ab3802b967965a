// The contract, implemented against the host. The Electron IPC registration, the headless server
// and the tests all call `dispatch`: payloads are zod-parsed here before any handler runs, and
// every outcome is a Result (errors never cross a boundary as thrown strings).
//
// The host implements its own channels; features on top of it (electron/import) implement theirs,
// and each shell puts the tables together where it is wired up: the host imports no feature.
import { z } from 'zod';
import { contract, isChannel, type Channel, type ChannelResult, type ParsedInput } from '../../shared/contract.js';
import { fail, ok, toHostError, type Result } from '../../shared/result.js';
import { expandHome, listFolders } from './access/folder-listing.js';
import type { RootsHost } from './roots-host.js';

export type ChannelHandler<C extends Channel> = (host: RootsHost, input: ParsedInput<C>) => Promise<ChannelResult<C>> | ChannelResult<C>;

/** Every channel of the contract, each with its handler. */
export type ContractHandlers = { [C in Channel]: ChannelHandler<C> };

export const hostHandlers = {
  'state.get': (host) => host.getState(),
  // `~` as people type it; the host's own checks (absolute, canonical) follow.
  'roots.add': (host, { paths }) => host.addRoots(paths.map((input) => expandHome(input))),
  'roots.remove': (host, { rootIds }) => host.removeRoots(rootIds),
  'folders.list': (_host, input) => listFolders(input),
  'roots.acceptTarget': (host, { rootId }) => host.acceptRootTarget(rootId),
  'roots.recheck': (host, { rootIds }) => (host.recheck(rootIds), null),
  'roots.rename': async (host, { rootId, name }) => (await host.renameRoot(rootId, name), null),
  'servers.add': (host, input) => host.addServer(input),
  'servers.update': async (host, { serverId, patch }) => (await host.updateServer(serverId, patch), null),
  'servers.remove': (host, { serverId }) => host.removeServer(serverId),
  'undo.apply': (host, { undoId }) => host.undo(undoId),
  'servers.replaceArgumentFolder': async (host, { serverId, path }) => (await host.replaceArgumentFolder(serverId, path), null),
  'servers.reconnect': async (host, { serverId }) => (await host.reconnect(serverId), null),
  'servers.setSharing': async (host, { serverId, sharing }) => (await host.setSharing(serverId, sharing), null),
  'servers.setEnabled': async (host, { serverId, enabled }) => (await host.setEnabled(serverId, enabled), null),
  'servers.activity': (host, { serverId }) => host.activity(serverId),
  'servers.network': (host, { serverId }) => host.networkRecord(serverId),
  'servers.changes': (host, { serverId, since }) => host.changes(serverId, since),
  'servers.diff': (host, { serverId, file }) => host.diff(serverId, file),
  'activity.history': (host) => host.history(),
  'activity.records': (host, { since }) => host.records(since),
  'grants.set': async (host, { serverIds, rootIds, granted, mode }) => {
    const { undoId, changed } = await host.setGrants(serverIds, rootIds, granted, mode);
    return { undoId, changed };
  },
  'grants.setWritable': async (host, { serverId, rootId, names }) => (await host.setWritableByChoice(serverId, rootId, names), null),
  'consent.dismiss': (host, { requestId }) => (host.dismissConsent(requestId), null),
  'notices.dismiss': (host, { noticeId }) => (host.dismissNotice(noticeId), null),
  'settings.update': async (host, patch) => (await host.updateSettings(patch), null),
} satisfies Partial<ContractHandlers>;

/** Validates and runs one call from any UI. Never throws; an unknown channel or bad payload changes nothing. */
export async function dispatch(handlers: ContractHandlers, host: RootsHost, channel: unknown, payload: unknown): Promise<Result<unknown>> {
  if (!isChannel(channel)) return fail('invalid-input', `Unknown channel: ${String(channel).slice(0, 100)}`);
  const parsed = contract[channel].input.safeParse(payload === undefined ? {} : payload);
  if (!parsed.success) return fail('invalid-input', z.prettifyError(parsed.error));
  try {
    const handler = handlers[channel] as (host: RootsHost, input: unknown) => unknown;
    return ok(await handler(host, parsed.data));
  } catch (error) {
    return { ok: false, error: toHostError(error) };
  }
}
