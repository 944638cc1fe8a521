import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Built into build/consola, which the server serves under /consola/ (src/http/console.ts).
export default defineConfig({
  base: "/consola/",
  plugins: [react()],
  build: {
    outDir: "../build/consola",
    emptyOutDir: true,
    // Images stay files: under the page's Content-Security-Policy data: URLs are allowed for images only.
    assetsInlineLimit: 0,
    // Leaflet and Chart.js make one large chunk; the console is loaded once per session.
    chunkSizeWarningLimit: 1024,
  },
});
