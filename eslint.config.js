import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'docs/api/**', '.stryker-tmp/**', 'test/consumer/**'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'examples/*.mjs', 'scripts/*.mjs'] }, tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-restricted-globals': ['error', 'process', 'Date', 'setTimeout', 'setInterval', 'fetch'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random' }]
    }
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } }
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**', 'examples/**', '*.ts', '*.js'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' }
  }
)
