// The embedding scenarios (./scenarios.ts) against examples/embed/express.mjs, over a loopback socket.
import { describeEmbedding } from './scenarios'

describeEmbedding('express')
