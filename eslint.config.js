// Lint rules, including the layering the design depends on (eslint-layering.js): shared/ imports
// nothing platform-specific, only electron/main (and the preload) import electron, the renderer
// never reaches into Node or the host, and the host imports none of the features built on it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layeringRule } from './eslint-layering.js';

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
        {
          // React calls whatever an effect returns as its cleanup: `useEffect(() => el.scrollIntoView())`
          // hands it a Promise and blanks the app on unmount. Effects get a block body.
          selector: "CallExpression[callee.name=/^use(Layout|Insertion)?Effect$/] > ArrowFunctionExpression.arguments:first-child[expression=true]",
          message: 'An effect with an expression body returns that value as its cleanup; use a block body.',
        },
      ],
    },
  },
  {
    // Every folder is covered: see eslint-layering.js for the allowlist per folder.
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { local: { rules: { layering: layeringRule } } },
    rules: { 'local/layering': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs', 'scripts/**', 'bin/**'],
    // Plain Node scripts (fixtures, bin, scripts): Node's globals.
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'AbortController', 'fetch', 'Headers', 'Request', 'Response'].map(
          (name) => [name, 'readonly'],
        ),
      ),
    },
  },
);
