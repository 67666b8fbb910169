import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

// The layers of src/, bottom up (ADR 0080): a folder imports only the folders it lists, so the
// folders never import each other in a cycle and the pure core never reaches up to a facade.
const layers = {
  calendar: [],
  json: [],
  decision: ['json'],
  http: ['calendar', 'decision', 'json'],
  validation: ['json'],
  recurrence: ['calendar', 'json'],
  auth: ['decision', 'http', 'json'],
  company: ['auth', 'decision', 'json'],
  banking: ['decision', 'json', 'validation'],
  paging: ['calendar', 'decision', 'http', 'json'],
  budget: ['auth', 'calendar', 'decision', 'http', 'json', 'recurrence', 'validation'],
  reply: ['decision'],
  client: ['calendar', 'http', 'json', 'paging'],
  facade: ['auth', 'banking', 'budget', 'calendar', 'company', 'decision', 'http', 'json', 'paging', 'reply'],
  sql: ['calendar', 'decision', 'json', 'paging'],
  timeline: ['budget', 'calendar', 'json', 'recurrence'],
  // The API's routes as data, once: what the server mounts, the document describes, the provider reads.
  api: ['decision', 'json', 'paging'],
  // decision records and replay, over the facades.
  decisions: ['api', 'auth', 'budget', 'calendar', 'decision', 'facade', 'http', 'json', 'paging', 'reply'],
  // the API's OpenAPI document, from the rules, the codecs and the endpoints.
  openapi: ['api', 'auth', 'budget', 'calendar', 'decision', 'http', 'json', 'paging', 'reply'],
  // the service's data as fast-check arbitraries (fast-check is a peer dependency).
  arbitraries: ['auth', 'banking', 'budget', 'calendar', 'company', 'decision', 'http', 'json', 'paging', 'recurrence']
}
// Around the core (contract section 1.3): the reference server, its store, the CLI and the
// conformance kit (R-91, which sends requests to a server) and the react-admin data provider
// (R-101, which sends them through the fetch it is given) do I/O and may import any folder of
// the core; no folder of the core imports them.
const around = ['server', 'store', 'cli', 'conformance', 'react-admin']
const folders = Object.keys(layers)
const layerRules = Object.entries(layers).map(([folder, allowed]) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: ['fs', 'http', 'https', 'net', 'child_process', 'os', 'path'].map((name) => ({
          name,
          message: 'The core does no I/O.'
        })),
        patterns: [
          {
            group: [
              ...folders.filter((f) => f !== folder && !allowed.includes(f)).map((f) => `../${f}/*`),
              ...around.map((f) => `../${f}/*`),
              '../*.ts',
              '../index',
              '../rules',
              '../client'
            ],
            message: `src/${folder} may import only ${allowed.join(', ') || 'nothing outside itself'} (the layers in eslint.config.js)`
          },
          { group: ['node:*'], message: 'The core does no I/O.' }
        ]
      }
    ]
  }
}))

export default defineConfig(
  // examples/openapi-client compiles against types generated from the running server
  // (test/openapi/client.test.ts), under its own strict tsconfig.
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'api/**',
      '.stryker-tmp/**',
      'test/consumer/**',
      'examples/openapi-client/**'
    ]
  },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'examples/*.mjs', 'scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-restricted-globals': ['error', 'process', 'Date', 'setTimeout', 'setInterval', 'fetch'],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random' }]
    }
  },
  ...layerRules,
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } }
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**', 'examples/**', '*.ts', '*.js', '*.mjs', ...around.map((f) => `src/${f}/**`)],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-properties': 'off' }
  },
  // Local time depends on the process's TZ (the core has no Date at all): everywhere else, tests
  // included, instants are read and written in UTC, so that only the core's own tests need run
  // under every time zone (scripts/unit.mjs, ADR 0129).
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression > MemberExpression.callee > Identifier.property[name=/^((get|set)(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds)|getTimezoneOffset|to(Locale|LocaleDate|LocaleTime|Date|Time)String)$/]',
          message: 'Local time depends on TZ: read and write instants in UTC (getUTC*, toISOString, Date.UTC).'
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length>1]",
          message: 'new Date(year, month, …) reads local time: use Date.UTC.'
        },
        {
          selector: "NewExpression[callee.property.name='DateTimeFormat']:not(:has(Property[key.name='timeZone']))",
          message: 'Intl.DateTimeFormat without a timeZone formats in local time: name the zone.'
        }
      ]
    }
  }
)
