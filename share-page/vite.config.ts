import { defineConfig } from "vite";

// Built into build/seguimiento, which the server serves: the page at /seguimiento/<token>, its files
// under /seguimiento/recursos/ (src/http/share-page.ts).
export default defineConfig({
  base: "/seguimiento/",
  build: {
    outDir: "../build/seguimiento",
    emptyOutDir: true,
    assetsDir: "recursos",
    // Images stay files: under the page's Content-Security-Policy data: URLs are allowed for images only.
    assetsInlineLimit: 0,
  },
});
