import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEnvironment, packagesWithBuildStep, parseNpx, parseUvx, registryName } from '../../../../electron/host/sandbox/package-launch.js';

describe('parseNpx', () => {
  it.each([
    [['-y', '@modelcontextprotocol/server-filesystem', '/a', '/b'], { spec: '@modelcontextprotocol/server-filesystem', rest: ['/a', '/b'] }],
    [['--yes', 'server@1.2.3', '--port', '3'], { spec: 'server@1.2.3', rest: ['--port', '3'] }],
    [['-p', '@scope/tools', 'tool-a', 'x'], { spec: '@scope/tools', binName: 'tool-a', rest: ['x'] }],
    [['--package=@scope/tools', 'tool-b'], { spec: '@scope/tools', binName: 'tool-b', rest: [] }],
    [['-y', './fixture-1.0.0.tgz'], { spec: './fixture-1.0.0.tgz', rest: [] }],
  ])('%j', (args, expected) => {
    expect(parseNpx(args)).toMatchObject(expected);
  });

  it('passes --registry and offline options on to npm install', () => {
    expect(parseNpx(['--registry', 'https://registry.example', '--prefer-offline', 'pkg']).npmOptions).toEqual(['--registry=https://registry.example', '--prefer-offline']);
  });

  it.each([[['-c', 'echo hi']], [['--call=echo']], [['-y']], [['-p', 'a', '-p', 'b', 'cmd']]])('refuses %j with npx-unsupported', (args) => {
    expect(() => parseNpx(args)).toThrow(expect.objectContaining({ code: 'npx-unsupported' }));
  });
});

describe('registryName', () => {
  it.each([
    ['@modelcontextprotocol/server-filesystem', { name: '@modelcontextprotocol/server-filesystem' }],
    ['@scope/pkg@2.0.0', { name: '@scope/pkg', version: '2.0.0' }],
    ['pkg@latest', { name: 'pkg', version: 'latest' }],
    ['./local.tgz', undefined],
    ['github:owner/repo', undefined],
    ['https://example.com/x.tgz', undefined],
  ])('%s', (spec, expected) => {
    expect(registryName(spec)).toEqual(expected);
  });
});

describe('parseUvx', () => {
  it.each([
    [['mcp-server-fetch'], { spec: 'mcp-server-fetch', command: 'mcp-server-fetch', rest: [] }],
    [['mcp-server-git@1.0.0', '--repository', '/r'], { spec: 'mcp-server-git==1.0.0', command: 'mcp-server-git', rest: ['--repository', '/r'] }],
    [['--from', 'git+https://example.com/x', 'x-server'], { spec: 'git+https://example.com/x', command: 'x-server', rest: [] }],
  ])('%j', (args, expected) => {
    expect(parseUvx(args)).toEqual(expected);
  });
});

describe('packagesWithBuildStep', () => {
  it('names every installed package npm recorded a build step for, dependencies and scoped ones included', () => {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'build-steps-'));
    try {
      fs.mkdirSync(path.join(staging, 'node_modules'));
      fs.writeFileSync(
        path.join(staging, 'node_modules', '.package-lock.json'),
        JSON.stringify({
          packages: {
            'node_modules/server': {},
            'node_modules/sqlite3': { hasInstallScript: true },
            'node_modules/server/node_modules/@scope/addon': { hasInstallScript: true },
            'node_modules/plain': { hasInstallScript: false },
          },
        }),
      );
      expect(packagesWithBuildStep(staging)).toEqual(['sqlite3', '@scope/addon']);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  });

  it('is empty where npm wrote no lockfile (nothing was installed)', () => {
    expect(packagesWithBuildStep(path.join(os.tmpdir(), 'no-such-staging'))).toEqual([]);
  });
});

describe('buildEnvironment', () => {
  it('keeps how to reach the registry and the network, and none of the person’s other variables', () => {
    const env = { PATH: '/usr/bin', npm_config_registry: 'https://r.example', HTTPS_PROXY: 'http://p:3128', GITHUB_TOKEN: 'ghp_secret', AWS_SECRET_ACCESS_KEY: 'k', HOME: '/home/me', UV_INDEX_URL: 'https://pypi.example' };
    expect(buildEnvironment(env)).toEqual({ PATH: '/usr/bin', npm_config_registry: 'https://r.example', HTTPS_PROXY: 'http://p:3128', UV_INDEX_URL: 'https://pypi.example' });
  });
});
