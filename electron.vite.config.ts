import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

/**
 * caniemail loads its data with a require relative to its own file, which a bundle does
 * not have: its json.js is swapped for src/main/qa/caniemail-data.ts, which imports the
 * same file so it is bundled in.
 */
const caniemailData = {
  name: 'caniemail-data',
  enforce: 'pre' as const,
  resolveId(source: string, importer: string | undefined) {
    if (source === './json.js' && importer?.replace(/\\/g, '/').includes('/caniemail/dist/')) return resolve('src/main/qa/caniemail-data.ts');
    return null;
  },
};

export default defineConfig({
  main: {
    plugins: [caniemailData],
    build: {
      // The demo's and the catcher's service run in a worker thread of their own (src/main/local-service.ts).
      rollupOptions: {
        // So does the HTML compatibility check (src/main/compat-worker.ts).
        input: { index: resolve('src/main/index.ts'), 'local-service-worker': resolve('src/main/local-service-worker.ts'), 'compat-worker': resolve('src/main/compat-worker.ts') },
        // Built into Node and Electron's main (since Electron 37), but missing from older builtin lists.
        external: ['node:sqlite'],
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload cannot load ES modules or other files: one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
      externalizeDeps: false,
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: {
      // Start-up speed: the renderer ships minified.
      minify: true,
      rollupOptions: {
        input: {
          index: resolve('src/renderer/index.html'),
          // The email's frame: a document of its own, with its own CSP (remote content held back, or allowed).
          'email-frame': resolve('src/renderer/email-frame.html'),
          'email-frame-remote': resolve('src/renderer/email-frame-remote.html'),
        },
      },
    },
    plugins: [react()],
  },
});
