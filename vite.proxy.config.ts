// Builds the proxy into one CommonJS file, dist/proxy-bundle/run-proxy.cjs, with its dependencies (the MCP
// SDK, zod) inside. Hosts launch `mcp-roots proxy` ten or twenty at once as they start, and each
// proxy loaded ~370 modules one by one: Node's module loader (resolving, reading, linking each file)
// cost more CPU than the code itself. One file costs a proxy about half as much to load
// (BENCHMARKS.md, history, 2026-11-23). The built CLI loads this file (electron/cli/proxy-entry.ts); tests
// that run the sources load the modules as they are.
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/**
 * The MCP SDK's packages do not declare `sideEffects`, so the bundler kept every module-level
 * statement of each SDK file the proxy touches, reached or not (ajv, the HTTP and SSE clients with
 * their OAuth schemas). Their modules only define things (no globals, no registration), so what the
 * proxy does not reach is left out. With the HTTP clients loaded only for an HTTP server
 * (upstream.ts), loading the bundle went from ~73 to ~55 ms of CPU (1.3 MB to 0.8 MB at start).
 * Not cut: the ~160 MCP schemas of the SDK's core, which its stdio transport's reader reaches.
 */
const sdkWithoutSideEffects: Plugin = {
  name: 'mcp-sdk-without-side-effects',
  transform(code, id) {
    return /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]/.test(id) ? { code, map: null, moduleSideEffects: false } : undefined;
  },
};

export default defineConfig({
  plugins: [sdkWithoutSideEffects],
  publicDir: false,
  build: {
    outDir: 'dist/proxy-bundle',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    ssr: path.resolve(import.meta.dirname, 'electron/proxy/run-proxy.ts'),
    // CommonJS, so that the CLI can compile it with V8's code cache on Node 20 (electron/cli/cached-bundle.ts);
    // its chunks are required, not imported, for the same reason.
    rollupOptions: { output: { format: 'cjs', entryFileNames: 'run-proxy.cjs', chunkFileNames: '[name]-[hash].cjs', dynamicImportInCjs: false } },
  },
  // Everything inside but the optional native keychain binding, which loads from node_modules.
  ssr: { noExternal: true, external: ['@napi-rs/keyring'] },
});
