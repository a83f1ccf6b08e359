// The linter: typescript-eslint's recommended rules over sources, tests, the benchmark and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', '.test-data/', '.bench-data/', '.test-build/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  // The benchmark and the scripts are command-line tools: printing is their job.
  { files: ['bench/**', 'scripts/**'], rules: { 'no-console': 'off' } },
  // The baseline server of the benchmark is plain JavaScript run by Node.
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', Buffer: 'readonly', console: 'readonly' } },
  },
);
