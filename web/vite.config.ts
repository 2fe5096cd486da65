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
  build: { outDir: here('./dist'), emptyOutDir: true, sourcemap: true },
});
