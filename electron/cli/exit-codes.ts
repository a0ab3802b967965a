// The exit codes every command keeps (documented in the README and in `mcp-roots --help`).
import { CodedError, toHostError } from '../../shared/result.js';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** The command line itself is wrong (a missing flag, two that exclude each other): exit 2 with a --help hint. */
export class UsageError extends CodedError {
  constructor(message: string) {
    super('invalid-input', message);
    this.name = 'UsageError';
  }
}

/** 2 for what the person typed wrong (usage, ambiguous or malformed input), 1 for everything that failed. */
export function exitCodeOf(error: unknown): number {
  return toHostError(error).code === 'invalid-input' ? EXIT.usage : EXIT.failure;
}
