// The ports of this computer a server may reach, as the registry file and every edit are checked:
// a hand-edited config.json with a bad list is refused with the reason, like the CLI and the UI.
import { describe, expect, it } from 'vitest';
import { serverPatchSchema } from '../../../shared/contract.js';
import { localPortsSchema } from '../../../shared/registry-schema.js';

describe('local ports (allowLocal)', () => {
  it('takes whole ports from 1 to 65535, each once', () => {
    expect(localPortsSchema.parse([3000, 8080])).toEqual([3000, 8080]);
    expect(localPortsSchema.parse([])).toEqual([]);
  });

  it.each([
    [[0], 'between 1 and 65535'],
    [[65536], 'between 1 and 65535'],
    [[80.5], 'whole number'],
    [[3000, 3000], 'listed once'],
    [Array.from({ length: 65 }, (_, i) => i + 1), 'at most 64'],
  ])('refuses %j with the reason', (ports, reason) => {
    const result = localPortsSchema.safeParse(ports);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join('; ')).toContain(reason);
  });

  it('is checked in an edit from the UI or the CLI too', () => {
    expect(serverPatchSchema.safeParse({ allowLocal: ['3000'] }).success).toBe(false);
    expect(serverPatchSchema.safeParse({ allowLocal: [3000] }).success).toBe(true);
  });
});
