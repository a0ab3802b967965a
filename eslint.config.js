// Lint rules, including the layering the design depends on: shared/ imports nothing
// platform-specific, only electron/main (and the preload) import electron, the renderer never
// reaches into Node or the host.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'url', 'events', 'stream', 'http', 'net'];

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'bench-results/**', 'build/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='sendSync']", message: 'sendSync blocks the renderer; use invoke.' },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: restrict(
      [...nodeBuiltins, 'electron', 'react', 'react-dom', '**/electron/**', '**/renderer/**'],
      'shared/ is plain TypeScript: no platform imports.',
    ),
  },
  {
    files: ['electron/host/**/*.ts', 'electron/serve/**/*.ts', 'electron/cli/**/*.ts'],
    rules: restrict(['electron', '**/renderer/**', '**/main/**'], 'Only electron/main imports electron; the host is Electron-free.'),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: restrict([...nodeBuiltins, 'electron', '**/electron/**'], 'The renderer reaches the host only through host-client.ts.'),
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: restrict([...nodeBuiltins, '**/host/**', '**/main/**'], 'The preload is a narrow bridge: electron and the contract only.'),
  },
  {
    files: ['**/*.js', '**/*.mjs', 'scripts/**', 'bin/**'],
    // Plain Node scripts (fixtures, bin, scripts): Node's globals.
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
