// A server's limits as a setting: the defaults, the bounds, and the words for a value out of them.
import { describe, expect, it } from 'vitest';
import { serverPatchSchema } from '../../../shared/contract.js';
import { serverLimitsSchema } from '../../../shared/registry-schema.js';
import { effectiveLimits, LIMIT_NAMES, LIMIT_RANGES, limitProblem } from '../../../shared/server-limits.js';

describe('server limits', () => {
  it('takes each setting the server has, and the default for the rest', () => {
    expect(effectiveLimits(undefined)).toEqual({ tasks: 1024, memoryMiB: 8192, tmpMiB: 512, files: 4096 });
    expect(effectiveLimits({ tasks: 64, tmpMiB: 32 })).toEqual({ tasks: 64, memoryMiB: 8192, tmpMiB: 32, files: 4096 });
  });

  it('refuses a value out of its bounds, a fraction, a string or an unknown limit, with the reason', () => {
    for (const name of LIMIT_NAMES) {
      const { min, max } = LIMIT_RANGES[name];
      expect(serverLimitsSchema.safeParse({ [name]: min }).success).toBe(true);
      expect(serverLimitsSchema.safeParse({ [name]: max }).success).toBe(true);
      for (const bad of [min - 1, max + 1, min + 0.5]) {
        const parsed = serverLimitsSchema.safeParse({ [name]: bad });
        expect(parsed.error?.issues[0]?.message).toBe(`${name} must be a whole number between ${min} and ${max}`);
        expect(limitProblem(name, bad)).toBeDefined();
      }
      expect(limitProblem(name, String(min))).toBe(`${name} must be a whole number`);
    }
    expect(serverLimitsSchema.safeParse({ cpu: 5 }).success).toBe(false);
  });

  it('is part of a server patch, so an edit with a bad value is refused before anything changes', () => {
    expect(serverPatchSchema.safeParse({ limits: { memoryMiB: 256 } }).success).toBe(true);
    expect(serverPatchSchema.safeParse({ limits: { memoryMiB: 1 } }).success).toBe(false);
  });
});
