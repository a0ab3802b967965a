// The probe's answer kept for the boot: reused while its key holds (same boot, user, bwrap program,
// namespace settings), probed anew when it does not, and never kept when it may be passing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedProbe, probeKey } from '../../../../electron/host/sandbox/probe-cache.js';
import type { SandboxSupport } from '../../../../electron/host/sandbox/sandbox-probe.js';
import { removeTempDirs, tempDir } from '../../../support/index.js';

afterEach(removeTempDirs);

const OK: SandboxSupport = {
  kind: 'bwrap',
  reasonCode: 'ok',
  reason: 'works',
  launcher: '/usr/bin/bwrap',
  disableUserns: true,
  view: { available: false, reason: 'test' },
};
/** As kept before the file view was probed: probed again. */
const OK_BEFORE_VIEW: SandboxSupport = { ...OK, view: undefined };
const FAILED: SandboxSupport = { kind: 'none', reasonCode: 'bwrap-failed', reason: 'timed out', disableUserns: false };

function counting(answer: SandboxSupport) {
  const calls = { count: 0 };
  return { calls, probe: async () => (calls.count++, answer) };
}

const keptFile = (dataDir: string) => path.join(dataDir, 'sandbox', 'probe.json');

describe.runIf(process.platform === 'linux')('cachedProbe', () => {
  it('an answer kept before the file view was probed is probed again', async () => {
    const dataDir = tempDir('data-');
    const first = counting(OK_BEFORE_VIEW);
    await cachedProbe(dataDir, first.probe);
    const second = counting(OK);
    expect(await cachedProbe(dataDir, second.probe)).toEqual(OK);
    expect([first.calls.count, second.calls.count]).toEqual([1, 1]);
  });

  it('a second process of the same boot reuses the answer instead of a trial run', async () => {
    const dataDir = tempDir('data-');
    const first = counting(OK);
    expect(await cachedProbe(dataDir, first.probe)).toEqual(OK);
    const second = counting(FAILED);
    expect(await cachedProbe(dataDir, second.probe)).toEqual(OK);
    expect([first.calls.count, second.calls.count]).toEqual([1, 0]);
    expect(fs.statSync(keptFile(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('probes again when anything in the key changed (here: another boot or another bwrap)', async () => {
    const dataDir = tempDir('data-');
    await cachedProbe(dataDir, counting(OK).probe);
    const kept = JSON.parse(fs.readFileSync(keptFile(dataDir), 'utf8'));
    fs.writeFileSync(keptFile(dataDir), JSON.stringify({ ...kept, key: `another-boot${kept.key.slice(kept.key.indexOf('|'))}` }));
    const again = counting(OK);
    await cachedProbe(dataDir, again.probe);
    expect(again.calls.count).toBe(1);
    expect(probeKey('/nonexistent')).not.toBe(probeKey());
  });

  it('keeps no answer that may pass (a trial run that failed for an unknown reason)', async () => {
    const dataDir = tempDir('data-');
    expect(await cachedProbe(dataDir, counting(FAILED).probe)).toEqual(FAILED);
    expect(fs.existsSync(keptFile(dataDir))).toBe(false);
    const next = counting(OK);
    expect(await cachedProbe(dataDir, next.probe)).toEqual(OK);
    expect(next.calls.count).toBe(1);
  });

  it('a damaged or forged file is not an answer', async () => {
    const dataDir = tempDir('data-');
    fs.mkdirSync(path.dirname(keptFile(dataDir)), { recursive: true });
    for (const content of ['{oops', JSON.stringify({ key: probeKey(), support: { kind: 'bwrap' } })]) {
      fs.writeFileSync(keptFile(dataDir), content);
      const probe = counting(OK);
      expect(await cachedProbe(dataDir, probe.probe)).toEqual(OK);
      expect(probe.calls.count).toBe(1);
    }
  });
});
