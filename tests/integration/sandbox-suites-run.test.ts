// The sandbox suites run where they can (`describe.runIf(support.kind === 'bwrap')` and the like):
// on CI a probe that went wrong would skip them all silently and the run would still be green
// (#30 item 16). So on CI, where .ci/run installs bubblewrap, passt and nftables and builds the
// helper, this fails unless the probe found each of them working.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findOnPath, probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { findNft } from '../../electron/host/sandbox/egress/netns-nft.js';

const onCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

describe.runIf(onCi && process.platform === 'linux')('on CI, the sandbox suites are not skipped', () => {
  it('finds bubblewrap working, the file view where FUSE is, pasta where passt is, and nftables', async () => {
    const support = await probeSandbox();
    expect(findOnPath('bwrap', process.env.PATH), 'bubblewrap is installed by .ci/run').toBeDefined();
    expect(support.kind, support.reason).toBe('bwrap');
    if (fs.existsSync('/dev/fuse')) expect(support.view?.available, support.view?.available === false ? support.view.reason : 'not probed').toBe(true);
    if (findOnPath('pasta', process.env.PATH) && process.getuid?.() === 0) expect(support.privateNetwork?.pasta, support.privateNetwork?.reason).toBeDefined();
    expect(findNft(), 'nftables is installed by .ci/run').toBeDefined();
  });
});
