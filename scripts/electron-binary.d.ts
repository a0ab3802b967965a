export function findElectronBinary(electronDir?: string): { found: true; path: string } | { found: false; reason: string };
export const FETCH_HINT: string;
