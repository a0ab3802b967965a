// The security gate accepts findings one by one: an acceptance names a check, a file and the line
// it is on, and covers one finding. A second insecure window in an accepted file blocks.
import { describe, expect, it } from 'vitest';
import { matchAcceptances, type Acceptance, type ScanIssue } from '../../../scripts/electron-security-scan.js';

const windowLine = 'const window = new BrowserWindow({';
const issue = (line: number, id = 'CONTEXT_ISOLATION_JS_CHECK', severity = 'HIGH'): ScanIssue => ({
  id,
  file: 'electron/main/main-window.ts',
  severity: { name: severity },
  location: { line, column: 17 },
});
const accepted: Acceptance[] = [
  { check: 'CONTEXT_ISOLATION_JS_CHECK', file: 'electron/main/main-window.ts', code: windowLine, reason: 'reviewed' },
];
const lines: Record<number, string> = { 34: windowLine, 80: windowLine, 90: 'const other = new BrowserWindow({ webPreferences: {} });' };
const lineOf = (finding: ScanIssue) => lines[finding.location?.line ?? 0] ?? '';

describe('accepted findings', () => {
  it('cover the finding they name, wherever its line moved', () => {
    const result = matchAcceptances([issue(40)], accepted, () => windowLine);
    expect(result.blocking).toEqual([]);
    expect(result.stale).toEqual([]);
  });

  it('cover one finding each: a second window in the same file blocks, even on an identical line', () => {
    expect(matchAcceptances([issue(34), issue(80)], accepted, lineOf).blocking).toEqual([issue(80)]);
    expect(matchAcceptances([issue(34), issue(90)], accepted, lineOf).blocking).toEqual([issue(90)]);
  });

  it('do not cover another check on the same line, and are reported stale when nothing matches', () => {
    const result = matchAcceptances([issue(34, 'NODE_INTEGRATION_JS_CHECK')], accepted, lineOf);
    expect(result.blocking).toHaveLength(1);
    expect(result.stale).toEqual(accepted);
  });

  it('let unaccepted findings below HIGH through as notes', () => {
    expect(matchAcceptances([issue(90, 'AUXCLICK_JS_CHECK', 'MEDIUM')], [], lineOf).blocking).toEqual([]);
  });
});
