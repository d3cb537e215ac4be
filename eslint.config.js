import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The layer arrows of ARCHITECTURE.md, enforced: each folder names what it may not import. */
const layer = (files, patterns, message) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }] },
});

const UI_LIBS = ['react', 'react-dom', 'react-dom/*', '@react-three/*', 'three', 'zustand', 'zustand/*'];
const NODE_ONLY = ['node:*', '**/loadNodeKernel', '**/node/*', 'opencascade.js/dist/node.js'];
const ENGINE_WIDE = [...UI_LIBS, 'node:*', '**/ui/*', '**/viewer/*', '**/workers/*', '**/cli/*', '**/node/*'];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name=/^(skip|only|todo)$/][object.name=/^(it|test|describe)$/]", message: 'No skipped, focused or todo tests.' },
      ],
    },
  },
  // Flat config replaces a rule per block, so each engine folder carries the engine-wide list too.
  layer(['src/engine/**'], ENGINE_WIDE, 'The engine has no DOM, React or renderer and knows no host.'),
  layer(['src/engine/kernel/**'], [...ENGINE_WIDE, '../*', '!../kernel/*'], 'src/engine/kernel imports nothing of ours (engine layers: ARCHITECTURE.md).'),
  layer(['src/engine/mesh/**'], [...ENGINE_WIDE, '**/tools/*', '**/scene/*', '**/graph/*', '**/render/*'], 'mesh may import the kernel only (engine layers: ARCHITECTURE.md).'),
  layer(['src/engine/exact/**'], [...ENGINE_WIDE, '**/kernel', '**/kernel/*', '**/tools/*', '**/scene/*', '**/graph/*', '**/render/*'], 'exact is plain JS on extracted data (no kernel: it runs in threads without one); it may import mesh only.'),
  layer(['src/engine/scene/**'], [...ENGINE_WIDE, '**/tools/*', '**/graph/*', '**/render/*'], 'scene may import kernel and mesh only (engine layers: ARCHITECTURE.md).'),
  layer(['src/engine/graph/**'], [...ENGINE_WIDE, '**/tools/*', '**/mesh/*', '**/render/*'], 'graph may import kernel and scene only (engine layers: ARCHITECTURE.md).'),
  layer(['src/engine/render/**'], [...ENGINE_WIDE, '../*', '!../render/*'], 'render imports nothing of ours (engine layers: ARCHITECTURE.md).'),
  layer(['src/viewer/**'], ['**/workers/*', '**/ui/*', ...NODE_ONLY], 'viewer takes only types from the engine.'),
  layer(['src/ui/**'], [...NODE_ONLY, '**/engine/kernel/*', '**/engine/scene/*', '**/engine/mesh/*'], 'ui talks to the engine only through workers/client.'),
  layer(['src/workers/**'], [...UI_LIBS, ...NODE_ONLY], 'workers host the engine; no UI and no Node.'),
  {
    files: ['src/ui/**', 'src/viewer/**', 'src/engine/**', 'src/cli/**', 'src/node/**'],
    ignores: ['src/workers/client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Worker']", message: 'Only src/workers/client.ts constructs a Worker.' },
        { selector: "MemberExpression[property.name=/^(skip|only|todo)$/][object.name=/^(it|test|describe)$/]", message: 'No skipped, focused or todo tests.' },
      ],
    },
  },
);
