import { defineConfig } from 'tsup'
import { cli } from './tsup.config'

// The bin alone (scripts/build.mjs, when `npm start` finds its sources changed).
export default defineConfig([cli])
