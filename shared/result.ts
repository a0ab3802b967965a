// Results, not thrown strings, cross every boundary (IPC, HTTP, CLI): the UI translates the code.

export type ErrorCode =
  | 'invalid-input'
  | 'not-found'
  | 'duplicate'
  | 'not-absolute'
  | 'bad-scheme'
  | 'bad-uri'
  | 'nul-byte'
  | 'too-long'
  | 'missing'
  | 'not-directory'
  | 'permission-denied'
  | 'symlink-loop'
  | 'store-failed'
  | 'unauthorized'
  | 'internal';

export interface HostError {
  code: ErrorCode;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: HostError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string): Result<never> => ({
  ok: false,
  error: { code, message },
});

/** An error that carries a code the UI can translate. Thrown inside the host, caught at the boundary. */
export class CodedError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CodedError';
  }
}

export function toHostError(error: unknown): HostError {
  if (error instanceof CodedError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message };
}
