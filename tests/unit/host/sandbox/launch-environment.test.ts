import { describe, expect, it } from 'vitest';
import { launchEnvironment } from '../../../../electron/host/sandbox/launch-environment.js';
import type { ShimNeeds } from '../../../../electron/host/sandbox/version-manager-shims.js';

const asdf: ShimNeeds = { manager: 'asdf', root: '/home/u/.asdf', paths: [], programs: [], env: { ASDF_DATA_DIR: '/home/u/.asdf' }, homeFiles: [] };

describe('launchEnvironment: version managers', () => {
  it("names the root a shim lies in, since HOME inside is the server's private one, and says why", () => {
    const launch = launchEnvironment({ env: {}, pathEnv: '/usr/bin', programPaths: [], home: '/data/home', versionManagers: [asdf] });
    expect(launch.env).toEqual({ ASDF_DATA_DIR: '/home/u/.asdf' });
    expect(launch.notes).toEqual(['ASDF_DATA_DIR=/home/u/.asdf (asdf finds its root from HOME, which is private here)']);
  });

  it('keeps what the person set', () => {
    const launch = launchEnvironment({ env: { ASDF_DATA_DIR: '/opt/asdf' }, pathEnv: '/usr/bin', programPaths: [], home: '/data/home', versionManagers: [asdf] });
    expect(launch.env).toEqual({});
  });
});
