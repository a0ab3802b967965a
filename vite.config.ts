// Builds the renderer only (the Electron main/preload and the headless server are built by tsc).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'renderer',
  // Relative asset URLs: the same bundle loads from file:// in Electron and from the serve server.
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Electron 45 and any browser that serves the UI are evergreen; no legacy transforms.
    target: 'es2023',
    sourcemap: true,
  },
});
