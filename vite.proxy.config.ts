// Builds the proxy into one ES module, dist/proxy-bundle/run-proxy.js, with its dependencies (the MCP
// SDK, zod) inside. Hosts launch `mcp-roots proxy` ten or twenty at once as they start, and each
// proxy loaded ~370 modules one by one: Node's module loader (resolving, reading, linking each file)
// cost more CPU than the code itself. One file costs a proxy about half as much to load
// (BENCHMARKS.md, section 12). The built CLI loads this file (electron/cli/proxy-entry.ts); tests
// that run the sources load the modules as they are.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist/proxy-bundle',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    ssr: path.resolve(import.meta.dirname, 'electron/proxy/run-proxy.ts'),
    rollupOptions: { output: { format: 'es', entryFileNames: 'run-proxy.js', chunkFileNames: '[name]-[hash].js' } },
  },
  // Everything inside but the optional native keychain binding, which loads from node_modules.
  ssr: { noExternal: true, external: ['@napi-rs/keyring'] },
});
