export function findElectronBinary(): { found: true; path: string } | { found: false; reason: string };
export const FETCH_HINT: string;
