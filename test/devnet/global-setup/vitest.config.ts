// The recipe's config: `globalSetup` starts the devnet once for every test file.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.spec.ts'],
    globalSetup: ['./devnet-setup.ts'],
  },
});
