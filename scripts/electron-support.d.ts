export function supportVerdict(installed: string, latest: string): { ok: boolean; behind: number; message: string };
export function installedElectronVersion(root?: string): string;
export function latestElectronVersion(env?: NodeJS.ProcessEnv): Promise<{ version: string | undefined; reason?: string }>;
