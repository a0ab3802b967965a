// Updates for installed copies are planned but off: no release channel, no check, no updater loaded.
import { describe, expect, it, vi } from 'vitest';
import { RELEASE_CHANNEL, setupAutoUpdates, updatePlan, type Updater } from '../../../electron/main/auto-update.js';

function fakeUpdater(check: () => Promise<unknown> = async () => null): Updater & { checkForUpdatesAndNotify: ReturnType<typeof vi.fn> } {
  return { channel: null, autoDownload: false, checkForUpdatesAndNotify: vi.fn(check) };
}

describe('updates', () => {
  it('are off: no release channel exists yet', () => {
    expect(RELEASE_CHANNEL).toBeUndefined();
    expect(updatePlan(true)).toEqual({ enabled: false, reason: 'no release channel exists yet' });
    expect(updatePlan(false, 'latest')).toMatchObject({ enabled: false });
  });

  it('while off, never load the updater, so nothing is asked of any server', async () => {
    const load = vi.fn(async () => fakeUpdater());
    await setupAutoUpdates(updatePlan(true), load);
    expect(load).not.toHaveBeenCalled();
  });

  it('once a channel is named, follow it in a packaged app', async () => {
    const updater = fakeUpdater();
    await setupAutoUpdates(updatePlan(true, 'beta'), async () => updater);
    expect(updater.channel).toBe('beta');
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledOnce();
  });

  it('never stop the app when the check fails (offline)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const updater = fakeUpdater(async () => {
      throw new Error('getaddrinfo ENOTFOUND');
    });
    await expect(setupAutoUpdates(updatePlan(true, 'latest'), async () => updater)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
