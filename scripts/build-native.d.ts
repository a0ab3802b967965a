// Types for scripts/build-native.js (the tests import it).
export const CFLAGS: string[];
export function helperSources(): string[];
export function buildHelper(options?: { quiet?: boolean }): { built: boolean; why: string };
