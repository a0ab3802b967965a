// Real MCP servers from npm (devDependencies), started as stdio children by the host under test.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import type { StdioTransportConfig } from '../../shared/domain.js';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(import.meta.dirname, '../..');

function packageEntry(name: string): string {
  const manifest = require.resolve(`${name}/package.json`);
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin ?? {})[0];
  if (!bin) throw new Error(`${name} has no bin`);
  return path.join(path.dirname(manifest), bin);
}

export const FILESYSTEM_ENTRY = packageEntry('@modelcontextprotocol/server-filesystem');
export const EVERYTHING_ENTRY = packageEntry('@modelcontextprotocol/server-everything');

/** server-filesystem with no directories on its command line: it sees only what roots give it. */
export function filesystemServer(): StdioTransportConfig {
  return { type: 'stdio', command: process.execPath, args: [FILESYSTEM_ENTRY], env: {} };
}

export function everythingServer(): StdioTransportConfig {
  return { type: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: {} };
}

/**
 * The 2026-07-28 fixture: it asks for roots only with an input_required round. It speaks both
 * eras (on 2025-11-25 the v2 SDK turns that round into a roots/list request) unless `modernOnly`.
 */
export function modernFixtureServer(options: { modernOnly?: boolean } = {}): StdioTransportConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [path.join(repoRoot, 'tests/fixtures/modern-roots-server.mjs'), ...(options.modernOnly ? ['modern-only'] : [])],
    env: {},
    cwd: repoRoot,
  };
}

/** Wraps a server so that every start appends a line to `countFile`: spawns can be counted. */
export function countingWrapper(inner: StdioTransportConfig, countFile: string): StdioTransportConfig {
  return {
    type: 'stdio',
    command: process.execPath,
    args: [path.join(repoRoot, 'tests/fixtures/count-spawns.mjs'), countFile, inner.command, ...inner.args],
    env: inner.env,
    ...(inner.cwd ? { cwd: inner.cwd } : {}),
  };
}

export function toolText(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** server-filesystem's own account of what it may see. */
export function allowedDirectories(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter(Boolean);
}
