// A `docker run` server gets a -v mount per effective folder, read-only as granted, and says that
// its confinement is the container's, not the OS sandbox's (bwrap around the docker client would
// confine nothing).
import { describe, expect, it } from 'vitest';
import { isContainerRun, withContainerMounts } from '../../../../electron/host/launch/docker-mounts.js';
import type { ExposedFolder } from '../../../../electron/host/access/exposure.js';
import { prepareStart } from '../../../../electron/host/launch/stdio-start.js';
import type { ServerRecord, StdioTransportConfig } from '../../../../shared/domain.js';

const docker = (args: string[], command = 'docker'): StdioTransportConfig => ({ type: 'stdio', command, args, env: {} });
const folders: ExposedFolder[] = [
  { rootId: 'a', path: '/home/me/proj', serverPath: '/projects/proj', mode: 'read-write' },
  { rootId: 'b', path: '/home/me/docs', serverPath: '/home/me/docs', mode: 'read-only' },
];

describe('container mounts', () => {
  it('adds one -v per folder right after run, before the image, :ro where the grant is read-only', () => {
    const line = withContainerMounts(docker(['run', '-i', '--rm', 'mcp/filesystem', '/projects']), folders);
    expect(line.args).toEqual(['run', '-v', '/home/me/proj:/projects/proj', '-v', '/home/me/docs:/home/me/docs:ro', '-i', '--rm', 'mcp/filesystem', '/projects']);
    expect(withContainerMounts(docker(['container', 'run', 'img']), folders.slice(0, 1)).args).toEqual(['container', 'run', '-v', '/home/me/proj:/projects/proj', 'img']);
    expect(withContainerMounts(docker(['run', 'img'], '/usr/bin/podman'), []).args).toEqual(['run', 'img']);
  });

  it('knows a container start from other commands', () => {
    expect(isContainerRun(docker(['run', 'img']))).toBe(true);
    expect(isContainerRun(docker(['run', 'img'], 'C:\\Program Files\\Docker\\docker.EXE'))).toBe(true);
    expect(isContainerRun(docker(['exec', 'box', 'server']))).toBe(false);
    expect(isContainerRun(docker(['run', 'img'], 'node'))).toBe(false);
    expect(isContainerRun({ type: 'http', url: 'http://x', headers: {} })).toBe(false);
  });

  it('refuses, by name, a folder whose path -v cannot carry', () => {
    const colon: ExposedFolder = { rootId: 'c', path: '/home/me/a:b', serverPath: '/home/me/a:b', mode: 'read-write' };
    expect(() => withContainerMounts(docker(['run', 'img']), [colon])).toThrow(/"\/home\/me\/a:b" contains ":"/);
  });

  it('is started as written plus its mounts, never inside bwrap, and says its confinement is advisory: the container', async () => {
    const record = { id: 's', sandbox: true, network: false } as ServerRecord;
    const prepared = await prepareStart(record, docker(['run', '-i', 'img']), folders, { dataDir: '/tmp' });
    expect(prepared.transport).toMatchObject({ command: 'docker', args: ['run', '-v', '/home/me/proj:/projects/proj', '-v', '/home/me/docs:/home/me/docs:ro', '-i', 'img'] });
    expect(prepared.confined).toBeUndefined();
    expect(prepared.confinement).toMatchObject({ state: 'advisory', reasonCode: 'container' });
    expect(prepared.confinement.reason).toMatch(/docker daemon/);
  });
});
