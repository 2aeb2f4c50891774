import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the gateway under /console (docs/console.md); every asset is bundled, nothing is loaded from elsewhere.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0, sourcemap: false },
});
