/**
 * A request's log line as logRequest writes it, straight to the destination: the same
 * bytes pino writes for the same line, but the instant; the level by the status; nothing below
 * the logger's level; only the line's own fields, whatever else an untyped caller hands it.
 */
import { describe, expect, it } from 'vitest'
import { logRequest, type RequestLine, requestLogger } from '../../src/server/log'

const captured = () => {
  const lines: Array<string> = []
  return { lines, destination: { write: (line: string) => void lines.push(line) } }
}

const line: RequestLine = {
  request_id: 'req-1',
  method: 'PATCH',
  route: '/v1/budgets/:id',
  status: 403,
  ms: 1.25,
  actor_id: 'u-1',
  key_id: '3f1a',
  company_id: 'c-"1"\n',
  rules: ['auth.bearer', 'budget.permission.manager']
}

const withoutTime = (text: string) => text.replace(/"time":"[^"]+"/, '"time":"T"')

describe('logRequest', () => {
  it('writes what pino writes for the line, byte for byte but the instant', () => {
    const ours = captured()
    logRequest(requestLogger('info', ours.destination), line)
    const pinos = captured()
    requestLogger('info', pinos.destination).info(line, 'PATCH /v1/budgets/:id 403')
    expect(ours.lines.map(withoutTime)).toEqual(pinos.lines.map(withoutTime))
    expect(ours.lines[0]).toMatch(/^\{"level":"info","time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","request_id":"req-1",/)
  })

  it('writes a 5xx at error, and nothing below the level', () => {
    const { lines, destination } = captured()
    const logger = requestLogger('error', destination)
    logRequest(logger, line)
    logRequest(logger, { ...line, status: 503 })
    expect(lines.map((l) => JSON.parse(l) as { level: string; status: number }).map((l) => [l.level, l.status])).toEqual([
      ['error', 503]
    ])
  })

  it("writes the line's own fields only, in their order", () => {
    const { lines, destination } = captured()
    logRequest(requestLogger('info', destination), { ...line, authorization: 'Bearer k', body: '{}' } as RequestLine)
    expect(Object.keys(JSON.parse(lines[0] ?? '{}') as object)).toEqual([
      'level',
      'time',
      'request_id',
      'method',
      'route',
      'status',
      'ms',
      'actor_id',
      'key_id',
      'company_id',
      'rules',
      'msg'
    ])
  })
})
