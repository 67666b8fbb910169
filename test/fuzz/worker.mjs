// The fuzz worker's entry: TypeScript through tsx, then the engine (worker-main.ts). A worker, so
// that the main thread can end a call that never returns (R-19: never a hang).
import { register } from 'tsx/esm/api'

register()
await import('./worker-main.ts')
