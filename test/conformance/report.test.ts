/**
 * The reports of the sequences and histories, word for word: the curl lines quoted for sh, a
 * sequence's steps with what each got, a transport failure, and a history's figures.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { ScenarioState } from '../../src/arbitraries/scenario'
import { formatDisagreement, formatHistory, formatSequences, type SequenceResult, type StepOutcome } from '../../src/conformance'
import type { ModelReply } from '../../src/conformance/model'
import { curlLine } from '../../src/conformance/report'

const state: ScenarioState = {
  today: '2026-11-22',
  session: { user: null, memberships: {} },
  budget: null,
  company_member_ids: [],
  records: []
}

const reply = (status: number, body: unknown, replayed = false): ModelReply => ({
  status,
  headers: { 'X-Request-Id': 'conformance' },
  body,
  reasons: replayed ? [] : [{ rule: 'auth.bearer', detail: 'a bearer key' }],
  replayed
})

describe('curlLine', () => {
  it('quotes for sh only the words that need it, a single quote closed, escaped and reopened', () => {
    expect(curlLine('http://h:1', 'GET', '/v1/budgets/b-1', {})).toBe('curl -sS -i -X GET http://h:1/v1/budgets/b-1')
    expect(curlLine('http://h:1', 'GET', '/v1/budgets?name=a&_end=2', { 'company-id': 'c-1' })).toBe(
      "curl -sS -i -X GET 'http://h:1/v1/budgets?name=a&_end=2' -H 'company-id: c-1'"
    )
    expect(curlLine('http://h:1', 'PATCH', '/v1/budgets/b-1', { 'X-A': 'b' }, `{"name":"it's"}`)).toBe(
      `curl -sS -i -X PATCH http://h:1/v1/budgets/b-1 -H 'X-A: b' --data-raw '{"name":"it'\\''s"}'`
    )
    // The words sh leaves alone as they are: letters, digits and @%+=:,./-
    expect(curlLine('h', 'GET', '/a@b%c+d=e:f,g.h/-_', {})).toBe('curl -sS -i -X GET h/a@b%c+d=e:f,g.h/-_')
  })
})

describe('formatSequences', () => {
  const top: SequenceResult = {
    ok: false,
    kind: 'disagreement',
    runs: 3,
    seed: 9,
    path: '2:0',
    url: 'http://h:1',
    state,
    steps: [
      { step: { kind: 'day', today: '2026-11-23' }, expected: null, actual: null },
      {
        step: {
          kind: 'request',
          request: {
            method: 'POST',
            path: '/v1/budgets/b-1/top_up',
            headers: { 'Idempotency-Key': 'k-1' },
            body: '{"amount_cents":5}'
          }
        },
        expected: reply(200, { balance_cents: 5 }, true),
        actual: { status: 200, headers: {}, body: '{"balance_cents":5}' }
      },
      {
        step: { kind: 'request', request: { method: 'GET', path: '/v1/budgets/b-1', headers: {}, body: undefined } },
        expected: reply(200, { balance_cents: 5 }),
        actual: { status: 404, headers: {}, body: '' }
      }
    ],
    differences: [{ part: 'status', expected: 200, actual: 404 }],
    foreign: []
  }

  it('a disagreement: the state, every step as a curl line with what it got, the last one in full', () => {
    expect(formatSequences(top)).toBe(
      [
        'Disagreement at step 3 of a sequence (found after 3 sequences, shrunk to 3 steps)',
        '',
        'state given:',
        '  today: 2026-11-22',
        '  session: {"user":null,"memberships":{}}',
        '  budget: null',
        '  company_member_ids: []',
        '  records: []',
        '',
        'steps (each a curl command; the first gives the server the state):',
        '',
        '# 0. the state',
        `curl -sS -i -X PUT http://h:1/__conformance/state -H 'Content-Type: application/json' --data-raw '{"state":{"today":"2026-11-22","session":{"user":null,"memberships":{}},"budget":null,"company_member_ids":[],"records":[]},"company_id":"c-1"}'`,
        '',
        '# 1. days pass: today is 2026-11-23',
        `curl -sS -i -X PUT http://h:1/__conformance/state -H 'Content-Type: application/json' --data-raw '{"today":"2026-11-23"}'`,
        '',
        '# 2. budget.top_up: 200 (replayed), as expected',
        `curl -sS -i -X POST http://h:1/v1/budgets/b-1/top_up -H 'Idempotency-Key: k-1' --data-raw '{"amount_cents":5}'`,
        '',
        '# 3. budget.read: differs',
        'curl -sS -i -X GET http://h:1/v1/budgets/b-1',
        '#    expected (the library): 200 {"balance_cents":5}',
        '#    actual (the server): 404 (no body)',
        '',
        'differences:',
        '  status: expected 200, actual 404',
        '',
        'rules of the expected reply: auth.bearer',
        'replay: checkSequences({ url, seed: 9, path: "2:0" })'
      ].join('\n')
    )
  })

  it('a disagreement on a replayed reply, or a route the model does not know', () => {
    const replayed: SequenceResult = {
      ...top,
      steps: [
        {
          step: {
            kind: 'request',
            request: { method: 'DELETE' as 'GET', path: '/v1/budgets/b-1', headers: {}, body: undefined }
          },
          expected: reply(404, { error: 'not_found' }),
          actual: { status: 404, headers: {}, body: '{"error":"not_found"}' }
        },
        top.steps[1] as StepOutcome
      ]
    }
    const text = formatSequences(replayed)
    expect(text).toContain('# 1. an unknown route: 404, as expected\n')
    expect(text).toContain('# 2. budget.top_up: differs\n')
    expect(text).toContain('#    expected (the library) (replayed): 200 {"balance_cents":5}\n')
    expect(text).toContain(
      'rules of the expected reply: (the kept reply of an Idempotency-Key, or the server convention of ADR 0100)\n'
    )
  })

  it('a transport failure: the error, the steps up to the request without a reply', () => {
    const cut: SequenceResult = {
      ok: false,
      kind: 'transport',
      runs: 2,
      seed: 9,
      url: 'http://h:1',
      state,
      steps: [
        {
          step: { kind: 'request', request: { method: 'GET', path: '/v1/budgets/b-1', headers: {}, body: undefined } },
          expected: null,
          actual: null
        }
      ],
      error: 'GET http://h:1/v1/budgets/b-1: fetch failed (UND_ERR_SOCKET)'
    }
    const text = formatSequences(cut).split('\n')
    expect(text.slice(0, 4)).toEqual([
      'No reply at step 1 of sequence 2: a transport failure, not a disagreement (the run stopped there, unshrunk)',
      '',
      'error: GET http://h:1/v1/budgets/b-1: fetch failed (UND_ERR_SOCKET)',
      ''
    ])
    expect(text.slice(-2)).toEqual(['# 1. budget.read: no reply', 'curl -sS -i -X GET http://h:1/v1/budgets/b-1'])
  })
})

describe('formatHistory', () => {
  it('the figures of an unknown verdict: no pass, and how far the longest order went', () => {
    const stats = {
      operations: 10,
      unknown: 1,
      refused: 2,
      retries: 3,
      replayed: 2,
      run_ms: 99.6,
      search_ms: 10000.04,
      explored: 7
    }
    expect(formatHistory({ ok: false, verdict: 'unknown', history: { state, operations: [] }, stats, longest: [0, 1] })).toBe(
      [
        '10 operations (1 unknown, 2 refused, 3 sent again, 2 replayed) in 100 ms: unknown, the search ran out of time (search 10000.0 ms, 7 configurations); this is no pass',
        'the longest order found explains 2 of the 10 operations'
      ].join('\n')
    )
  })

  it('a cheap check: its words, the operations per client, a reply lost and one replayed', () => {
    const op = {
      client: 1,
      kind: 'top_up' as const,
      amount_cents: 5,
      key: 'k',
      url: 'http://h:1',
      error: null,
      retry_of: null
    }
    const history = {
      state,
      operations: [
        { ...op, id: 0, invoked: 0, completed: 1.5, reply: { status: 200, body: { balance_cents: 5 }, replayed: false } },
        { ...op, id: 1, client: 0, invoked: 0.25, completed: null, reply: null, error: 'timeout', retry_of: 0 },
        { ...op, id: 2, invoked: 2, completed: 3, reply: { status: 422, body: { errors: {} }, replayed: true } }
      ]
    }
    const stats = { operations: 3, unknown: 1, refused: 0, retries: 1, replayed: 1, run_ms: 3, search_ms: 0, explored: 0 }
    const text = formatHistory({
      ok: false,
      verdict: 'not linearizable',
      check: 'key applied twice',
      history,
      stats,
      witness: [0, 1, 2],
      unheard: [2],
      from: null,
      longest: [],
      stuck: null,
      state: null,
      expected: null
    })
    expect(text).toBe(
      [
        '3 operations (1 unknown, 0 refused, 1 sent again, 1 replayed) in 3 ms: not linearizable: one Idempotency-Key got two replies, neither replayed: it moved the money twice',
        '',
        'the 3 operations that show it, per client:',
        '  client 0',
        '    #1  0.25..? ms  top_up 5  key k (again, as #0)  http://h:1  -> unknown (timeout)',
        '  client 1',
        '    #0  0.00..1.50 ms  top_up 5  key k  http://h:1  -> 200 balance 5',
        '    #2  2.00..3.00 ms  top_up 5  key k  http://h:1  -> 422 {"errors":{}} (replayed)  [reply after the end of the part: counted as unknown]'
      ].join('\n')
    )
  })
})

describe('R-126: what a request or a reply held, in a report', () => {
  const ATTACK = '\x1b[2J\x1b[H\x1b]0;owned\x07'
  const SHOWN = '\\u001b[2J\\u001b[H\\u001b]0;owned\\u0007'
  /** C0 but newline, DEL, C1 and the bidi controls, found in a printout. */
  const obeyed = (text: string): Array<number> =>
    Array.from(text, (c) => c.charCodeAt(0)).filter(
      (u) => (u < 0x20 && u !== 0x0a) || (u >= 0x7f && u <= 0x9f) || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069)
    )

  it('a transport failure: the request line, its headers, its body and the error, each control escaped', () => {
    const request = {
      method: 'PATCH' as const,
      path: `/v1/budgets/${ATTACK}`,
      headers: { 'X-A': `${ATTACK}\u202e` },
      body: `{"name":"${ATTACK}\n"}`
    }
    const text = formatDisagreement({
      ok: false,
      kind: 'transport',
      runs: 1,
      seed: 3,
      scenario: { endpoint: 'budget.update', state, request },
      previous: null,
      error: `socket hang up ${ATTACK}`
    })
    expect(text.split('\n')).toEqual([
      'No reply to budget.update after 1 runs: a transport failure, not a disagreement (the check stopped there, unshrunk)',
      '',
      `error: socket hang up ${SHOWN}`,
      '',
      'request without a reply:',
      `  PATCH /v1/budgets/${SHOWN}`,
      `  X-A: ${SHOWN}\\u202e`,
      '',
      `  {"name":"${SHOWN}\\u000a"}`,
      '',
      'no request was sent before it'
    ])
  })

  it("a sequence's curl lines stay runnable in bash ($'...' with the escapes) and its body diff shows the escapes", () => {
    expect(curlLine('http://h:1', 'PATCH', '/v1/budgets/b-1', {}, `{"name":"it's \\ ${ATTACK}"}`)).toBe(
      `curl -sS -i -X PATCH http://h:1/v1/budgets/b-1 --data-raw $'{"name":"it\\'s \\\\ ${SHOWN}"}'`
    )
    // The quoted word is what bash hands curl: each byte of the body, controls, quotes and backslashes included.
    const body = `{"name":"it's \\ ${ATTACK}\n\u0085\u202e\u00e9"}`
    const line = curlLine('http://h:1', 'PATCH', '/v1/budgets/b-1', {}, body)
    const word = line.slice(line.indexOf('--data-raw ') + '--data-raw '.length)
    expect(
      spawnSync('bash', ['-c', `printf %s ${word}`], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } }).stdout
    ).toBe(body)
    const hostile: SequenceResult = {
      ok: false,
      kind: 'disagreement',
      runs: 1,
      seed: 9,
      path: '0',
      url: 'http://h:1',
      state: { ...state, records: [{ name: ATTACK }] },
      steps: [
        {
          step: {
            kind: 'request',
            request: { method: 'PATCH', path: '/v1/budgets/b-1', headers: {}, body: `{"name":"${ATTACK}"}` }
          },
          expected: reply(200, { name: ATTACK }),
          actual: { status: 200, headers: {}, body: JSON.stringify({ name: `${ATTACK}\u2066` }) }
        }
      ],
      differences: [{ part: 'body', expected: { name: ATTACK }, actual: { name: `${ATTACK}\u2066` } }],
      foreign: []
    }
    const text = formatSequences(hostile)
    expect(obeyed(text)).toEqual([])
    expect(text).toContain(`    {"name":"${SHOWN}"}\n`)
    expect(text).toContain(`--data-raw $'{"name":"${SHOWN}"}'\n`)
    expect(text).toContain(`#    actual (the server): 200 {"name":"${SHOWN}\\u2066"}\n`)
    expect(text).toContain(`    -   "name": "${SHOWN}"\n    +   "name": "${SHOWN}\\u2066"\n`)
  })
})
