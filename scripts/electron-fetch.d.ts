export const DEFAULT_TIMEOUTS: { firstByte: number; stall: number };
export function electronPackageDir(): string;
export function fetchElectronBinary(options?: {
  electronDir?: string;
  timeouts?: Partial<typeof DEFAULT_TIMEOUTS>;
  progress?: (event: { line: string; percent: number; final: boolean }) => void;
}): Promise<string>;
