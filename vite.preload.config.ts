// Builds the sandboxed preload into ONE CommonJS file, dist/preload/index.cjs: a sandboxed preload
// can require nothing but 'electron' (and a few Node built-ins), so everything else is bundled.
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { channels, eventNames } from './shared/contract.js';

const CONTRACT_FILE = path.resolve(import.meta.dirname, 'shared/contract.ts');
const NAMES_ONLY_ID = '\0contract-names-only';

/**
 * The preload needs the contract's channel and event names, not its zod schemas. This swaps the
 * contract module for its names, computed here from the real contract at build time: one source of
 * truth, and the preload stays ~5 kB instead of carrying ~90 kB of zod. Any other value imported
 * from the contract is missing in the build and fails it loudly.
 */
function contractNamesOnly(): Plugin {
  return {
    name: 'contract-names-only',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !source.includes('contract')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === CONTRACT_FILE ? NAMES_ONLY_ID : null;
    },
    load(id) {
      if (id !== NAMES_ONLY_ID) return null;
      return [
        `export const channels = Object.freeze(${JSON.stringify(channels)});`,
        `export const eventNames = Object.freeze(${JSON.stringify(eventNames)});`,
      ].join('\n');
    },
  };
}

export default defineConfig({
  publicDir: false,
  plugins: [contractNamesOnly()],
  build: {
    outDir: 'dist/preload',
    emptyOutDir: true,
    // Electron 45's Chromium; no transforms needed.
    target: 'es2023',
    minify: false,
    sourcemap: false,
    lib: {
      entry: path.resolve(import.meta.dirname, 'electron/preload/index.ts'),
      formats: ['cjs'],
      fileName: () => 'index.cjs',
    },
    rollupOptions: {
      external: ['electron'],
    },
  },
});
