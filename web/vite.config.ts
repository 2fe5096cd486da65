import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  resolve: {
    alias: { '@': here('./src'), '@shared': here('../shared') },
  },
  server: {
    port: 5173,
    fs: { allow: [here('..')] },
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  // No source maps: they would publish the console's source to anyone who can load it.
  build: { outDir: here('./dist'), emptyOutDir: true, sourcemap: false },
});
