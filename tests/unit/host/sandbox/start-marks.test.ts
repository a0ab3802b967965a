// The start's timing marks (bench section 12): kept and written only when MCP_ROOTS_START_MARKS=1.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const marksModule = path.resolve(import.meta.dirname, '../../../../electron/host/sandbox/start-marks.ts');
const script = `import(${JSON.stringify(marksModule)}).then((m) => { m.startMark('cli'); m.startMark('bundle'); console.log(String(m.startMarksLine())); })`;
const run = (env: Record<string, string>) => execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();

describe('start marks', () => {
  it('names each moment since the process began, with the CPU used, when asked', () => {
    expect(run({ MCP_ROOTS_START_MARKS: '1' })).toMatch(/^start-marks origin=\d+(\.\d)? cpu=[\d.]+ cli=[\d.]+ bundle=[\d.]+$/);
  });

  it('keeps nothing otherwise', () => {
    expect(run({ MCP_ROOTS_START_MARKS: '' })).toBe('undefined');
  });
});
