// The embedding scenarios (./scenarios.ts) against examples/embed/fastify.mjs, over a loopback socket.
import { describeEmbedding } from './scenarios'

describeEmbedding('fastify')
