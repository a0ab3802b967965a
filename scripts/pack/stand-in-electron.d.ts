export const FUSE_SENTINEL: string;
export const FUSE_ORDER: readonly string[];
export const ELECTRON_DEFAULT_FUSES: string;
export function createStandInElectron(dir: string, options: { version: string }): string;
