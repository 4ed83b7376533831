import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The keepsake's one script (index.html and verify.html), a classic script: file:// loads no modules. */
export default defineConfig({
  build: {
    outDir: path.join(here, '../../dist/keepsake'),
    emptyOutDir: true,
    lib: { entry: path.join(here, 'main.ts'), formats: ['iife'], name: 'Keepsake', fileName: () => 'keepsake.js' },
  },
});
