// ESLint for every package (npm run lint; CI runs it). The recommended rules of ESLint and typescript-eslint, without
// type information (fast enough for every run), less the few this codebase decides otherwise, each with its reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.tmp/**', 'packages/*/data/**', 'packages/web/test/fixtures/**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        performance: 'readonly',
        crypto: 'readonly',
        WebSocket: 'readonly',
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        localStorage: 'readonly',
      },
    },
    rules: {
      // Rows from two SQL drivers and JSON from clients are untyped at the edges; the mappers and zod schemas type them.
      '@typescript-eslint/no-explicit-any': 'off',
      // `let x = fallback; try { x = parse() } catch { … }` states the fallback where the reader looks for it.
      'no-useless-assignment': 'off',
      // An empty catch is how best-effort cleanup says "ignore"; other empty blocks stay errors.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Validators match control characters on purpose (refusing NUL and C0 in names and URLs).
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
);
