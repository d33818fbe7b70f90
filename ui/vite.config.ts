import { defineConfig } from "vitest/config";

export default defineConfig({
  clearScreen: false,
  server: { port: 5173, strictPort: true },
  build: {
    outDir: "dist",
    target: "es2022",
    emptyOutDir: true,
    rollupOptions: { input: { main: "index.html", bare: "bare.html", bareEmpty: "bare-empty.html" } },
  },
  test: { environment: "jsdom", globals: true, include: ["src/**/*.test.ts"] },
});
