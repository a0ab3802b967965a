export interface FpmOptions {
  depends: string[];
  recommends: string[];
  mappings: { source: string; destination: string }[];
  [option: string]: unknown;
}
export function parseFpmArguments(argv: readonly string[]): FpmOptions;
export function controlFile(options: FpmOptions, installedSizeKiB: number): string;
