import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: webDir,
  plugins: [
    // Must run before the React plugin: it generates src/routeTree.gen.ts (gitignored) on every build.
    tanstackRouter({
      target: 'react',
      routesDirectory: path.join(webDir, 'src/routes'),
      generatedRouteTree: path.join(webDir, 'src/routeTree.gen.ts'),
      // tsconfig resolves with NodeNext, so the generated imports need their .tsx extensions.
      addExtensions: true,
      quoteStyle: 'single',
      // Each route's component is its own chunk, loaded when the route is visited: the gate and the
      // gallery never download the studio (and Fabric) or the forms.
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
  ],
  build: {
    outDir: path.join(webDir, '../dist/web'),
    emptyOutDir: true,
    // Lets tests and benchmarks read which files each route needs.
    manifest: true,
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
