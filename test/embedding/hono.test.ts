// The embedding scenarios (./scenarios.ts) against examples/embed/hono.mjs, over a loopback socket.
import { describeEmbedding } from './scenarios'

describeEmbedding('hono')
