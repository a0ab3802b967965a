// The one decision of what a running server is told after a change, for the cases whose mounts are
// fixed at start: the OS sandbox's, and a `docker run` container's -v mounts (docker-mounts.ts).
import { describe, expect, it } from 'vitest';
import { CONTAINER_CONFINEMENT } from '../../../../electron/host/launch/docker-mounts.js';
import type { ExposedFolder, Exposure } from '../../../../electron/host/access/exposure.js';
import { configChangeEvent } from '../../../../electron/host/connections/activity-events.js';
import { decideRootsChange, forecastChange, forecastFor, mountsAreGrants, needsRestart, type SessionFacts } from '../../../../electron/host/connections/roots-change-policy.js';
import type { ServerRecord } from '../../../../shared/domain.js';

const folder = (path: string, serverPath = path): ExposedFolder => ({ rootId: path, path, serverPath, mode: 'read-write' });
const exposure = (...folders: ExposedFolder[]): Exposure => ({
  rootIds: folders.map((f) => f.rootId),
  roots: folders.map((f) => ({ uri: `file://${f.serverPath}` })),
  uris: folders.map((f) => `file://${f.serverPath}`),
  folders,
});
const facts = (confined: boolean, started: ExposedFolder[]): SessionFacts => ({
  started: { folders: started },
  connected: true,
  era: 'legacy',
  injectsRoots: false,
  confined,
  toldSomeRoots: true,
  reasks: 'yes',
  waitingToRetry: false,
});

describe('roots-change policy for servers whose mounts are their grants', () => {
  it('counts a container and an enforced sandbox, not an advisory or remote server', () => {
    expect(mountsAreGrants(CONTAINER_CONFINEMENT)).toBe(true);
    expect(mountsAreGrants({ state: 'enforced', kind: 'bwrap' })).toBe(true);
    expect(mountsAreGrants({ state: 'advisory', reasonCode: 'remote-server' })).toBe(false);
    expect(mountsAreGrants(undefined)).toBe(false);
  });

  it('restarts a container for a new grant, and for a folder moved to another server path; notifies an unconfined one', () => {
    const container = facts(mountsAreGrants(CONTAINER_CONFINEMENT), [folder('/a')]);
    expect(decideRootsChange(container, exposure(folder('/a'), folder('/b')))).toEqual({ kind: 'restart', why: 'mounts' });
    expect(decideRootsChange(container, exposure(folder('/a', '/projects/a')))).toEqual({ kind: 'restart', why: 'mounts' });
    expect(decideRootsChange(facts(false, [folder('/a')]), exposure(folder('/a'), folder('/b')))).toEqual({ kind: 'notify' });
  });

  it('retries a failed server at once when its folders change, and leaves one that is not waiting alone', () => {
    const failed: SessionFacts = { ...facts(true, []), started: undefined, connected: false, era: undefined, waitingToRetry: true };
    expect(decideRootsChange(failed, exposure(folder('/a')))).toEqual({ kind: 'restart', why: 'retry' });
    // A revoke too: whatever it waits with, the next start would read the newest folders anyway.
    expect(decideRootsChange(failed, exposure())).toEqual({ kind: 'restart', why: 'retry' });
    expect(decideRootsChange({ ...failed, waitingToRetry: false }, exposure(folder('/a')))).toEqual({ kind: 'none' });
  });
});

describe('forecast: what a grant or revoke would do, asked before it is made', () => {
  it('a confined server: a grant and a revoke each take a restart for new mounts', () => {
    expect(forecastChange(facts(true, [folder('/a')]), exposure(folder('/a')))).toEqual({ grant: 'mounts', revoke: 'mounts' });
  });

  it('an unconfined server that re-reads its folders: neither restarts it', () => {
    expect(forecastChange(facts(false, [folder('/a'), folder('/b')]), exposure(folder('/a'), folder('/b')))).toEqual({ grant: undefined, revoke: undefined });
  });

  it('its last folder: a revoke restarts it so it forgets; a grant does not', () => {
    expect(forecastChange(facts(false, [folder('/a')]), exposure(folder('/a')))).toEqual({ grant: undefined, revoke: 'forget' });
  });

  it('an ask-once server (it does not re-ask): every change restarts it', () => {
    expect(forecastChange({ ...facts(false, [folder('/a'), folder('/b')]), reasks: 'no' }, exposure(folder('/a'), folder('/b')))).toEqual({ grant: 'reask', revoke: 'reask' });
  });

  it('a server that takes its folders as arguments: every change restarts it; with none granted only a grant starts it', () => {
    const argued: SessionFacts = { ...facts(false, [folder('/a')]), injectsRoots: true };
    expect(forecastChange(argued, exposure(folder('/a')))).toEqual({ grant: 'arguments', revoke: 'arguments' });
    expect(forecastChange({ ...argued, started: undefined }, exposure())).toEqual({ grant: 'arguments', revoke: undefined });
  });

  it('a server that is off or not sharing is told no folders whatever it is granted: nothing restarts it', () => {
    const argued: SessionFacts = { ...facts(true, [folder('/a')]), injectsRoots: true };
    expect(forecastFor({ enabled: true, sharing: true }, argued, exposure(folder('/a')))).toEqual({ grant: 'arguments', revoke: 'arguments' });
    expect(forecastFor({ enabled: false, sharing: true }, argued, exposure())).toEqual({});
    expect(forecastFor({ enabled: true, sharing: false }, argued, exposure())).toEqual({});
  });

  it('is the decision itself, not a copy: each answer is what decideRootsChange says of the change', () => {
    const cases: SessionFacts[] = [facts(true, [folder('/a')]), facts(false, [folder('/a')]), { ...facts(false, [folder('/a')]), reasks: 'no' }, { ...facts(false, [folder('/a')]), era: 'modern' }];
    for (const session of cases) {
      const now = exposure(folder('/a'));
      const grant = decideRootsChange(session, exposure(folder('/a'), folder('/other')));
      const revoke = decideRootsChange(session, exposure());
      expect(forecastChange(session, now)).toEqual({
        grant: grant.kind === 'restart' ? grant.why : undefined,
        revoke: revoke.kind === 'restart' ? revoke.why : undefined,
      });
    }
  });
});

describe('roots-change policy for a sandbox whose mounts change live', () => {
  const live = (started: ExposedFolder[], more: Partial<SessionFacts> = {}): SessionFacts => ({ ...facts(true, started), liveMounts: true, ...more });
  const ro = (path: string): ExposedFolder => ({ ...folder(path), mode: 'read-only' });

  it('mounts a grant live and then tells a server that asks again', () => {
    expect(decideRootsChange(live([folder('/a')]), exposure(folder('/a'), ro('/b')))).toEqual({ kind: 'live', then: 'notify' });
    // Not yet known whether it asks again: told, and the reask window learns it.
    expect(decideRootsChange(live([folder('/a')], { reasks: 'unknown' }), exposure(folder('/a'), ro('/b')))).toEqual({ kind: 'live', then: 'notify' });
  });

  it('mounts a folder it may now write live too: it arrives whole, its protected paths read-only inside (holder-launch.ts addCommands)', () => {
    expect(decideRootsChange(live([folder('/a')]), exposure(folder('/a'), folder('/b')))).toEqual({ kind: 'live', then: 'notify' });
    expect(decideRootsChange(live([ro('/a')]), exposure(folder('/a')))).toEqual({ kind: 'live', then: 'notify' });
    expect(decideRootsChange(live([folder('/a'), folder('/b')]), exposure(folder('/a')))).toEqual({ kind: 'live', then: 'notify' });
  });

  it('changes a mode live: the same folder read-only is another mount', () => {
    expect(decideRootsChange(live([folder('/a')]), exposure({ ...folder('/a'), mode: 'read-only' }))).toEqual({ kind: 'live', then: 'notify' });
  });

  it('restarts a server that asks only once: its mounts alone do not make it read its folders again', () => {
    expect(decideRootsChange(live([folder('/a')], { reasks: 'no' }), exposure(folder('/a'), folder('/b')))).toEqual({ kind: 'restart', why: 'reask' });
  });

  it('restarts for the last folder’s revoke: unmounted or not, a server that keeps its folders would go on naming it', () => {
    expect(decideRootsChange(live([folder('/a')]), exposure())).toEqual({ kind: 'restart', why: 'forget' });
    // One that was never told a folder has nothing to forget: the revoke is live.
    expect(decideRootsChange(live([folder('/a')], { toldSomeRoots: false }), exposure())).toEqual({ kind: 'live', then: 'notify' });
  });

  it('restarts one still starting (its handshake would name folders not yet mounted); mounts live without a notification for a 2026-07-28 session', () => {
    expect(decideRootsChange(live([folder('/a')], { connected: false, era: undefined }), exposure(folder('/b')))).toEqual({ kind: 'restart', why: 'mounts' });
    expect(decideRootsChange(live([folder('/a')], { era: 'modern' }), exposure(ro('/b')))).toEqual({ kind: 'live', then: 'none' });
  });

  it('does nothing live when its mounts stay the same, and restarts where the sandbox cannot change live', () => {
    expect(decideRootsChange(live([folder('/a')]), exposure(folder('/a')))).toEqual({ kind: 'notify' });
    expect(decideRootsChange({ ...live([folder('/a')]), liveMounts: false }, exposure(folder('/a'), folder('/b')))).toEqual({ kind: 'restart', why: 'mounts' });
  });

  it('still starts one that waits, and restarts one that takes its folders as arguments', () => {
    expect(decideRootsChange(live([], { started: undefined, connected: false, waitingToRetry: true }), exposure(folder('/a')))).toEqual({ kind: 'restart', why: 'retry' });
    expect(decideRootsChange(live([folder('/a')], { injectsRoots: true }), exposure(folder('/a'), folder('/b')))).toEqual({ kind: 'restart', why: 'arguments' });
  });

  it('forecasts what it does: a grant (read-write too) and a revoke are live', () => {
    expect(forecastChange(live([folder('/a'), folder('/b')]), exposure(folder('/a'), folder('/b')))).toEqual({ grant: undefined, revoke: undefined });
    // Its last folder's revoke still restarts it, and an ask-once server still restarts for either.
    expect(forecastChange(live([folder('/a')]), exposure(folder('/a')))).toEqual({ grant: undefined, revoke: 'forget' });
    expect(forecastChange(live([folder('/a'), folder('/b')], { reasks: 'no' }), exposure(folder('/a'), folder('/b')))).toEqual({ grant: 'reask', revoke: 'reask' });
  });
});

describe('a grant’s opt-in (protected names left writable) and the running server', () => {
  const record: ServerRecord = {
    id: 's',
    name: 's',
    transport: { type: 'stdio', command: 'node', args: [], env: {} },
    enabled: true,
    sharing: true,
    sandbox: true,
    network: true,
    askForFolders: true,
    addedAt: '',
  };
  const withChoice = (choices: ServerRecord['writableByChoice']): ServerRecord => ({ ...record, writableByChoice: choices });

  it('restarts it when a choice is made, narrowed or cleared on a folder still granted (the protected paths are bound at its start), and says why', () => {
    const chosen = withChoice({ r: ['.git/hooks', '.vscode'] });
    const granted = new Set(['r']);
    for (const [before, after] of [
      [record, chosen],
      [chosen, withChoice({ r: ['.vscode'] })],
      [chosen, withChoice({ r: [] })],
      [chosen, record],
    ] as const) {
      expect(needsRestart(before, after, granted)).toBe(true);
      expect(configChangeEvent(before, after)).toEqual({ code: 'config-writable' });
    }
    expect(needsRestart(chosen, withChoice({ r: ['.git/hooks', '.vscode'] }), granted)).toBe(false);
  });

  it('does not restart it for a choice that went with its grant’s revoke: the folder leaves by a live unmount', () => {
    const chosen = withChoice({ r: ['.vscode'], kept: ['.idea'] });
    expect(needsRestart(chosen, withChoice({ kept: ['.idea'] }), new Set(['kept']))).toBe(false);
    // Without knowing the grants (an older caller), any change of the record is still a restart.
    expect(needsRestart(chosen, withChoice({ kept: ['.idea'] }))).toBe(true);
  });
});

