import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests spawn the built CLI; parsing WASM start-up makes them slower than unit tests.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
