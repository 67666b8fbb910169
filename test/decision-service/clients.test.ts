/**
 * The clients of the decision service outside JavaScript: examples/decide/client.py
 * (Python's standard library) and examples/decide/decide.sh (POSIX shell and curl), run as a user
 * runs them against the service started in this process, answer what the library answers:
 * `answerCase` of the same case, field for field, but the record's instant (the service's clock).
 * Both need their interpreter: without Debian's python3 or curl (.ci/run installs them) every test
 * here fails, saying which is missing.
 */
import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDecisionService, type DecisionServiceRunning } from '../../src/server/decide/main'
import { type Answer, answerCase } from '../../src/decisions/answer'
import { LIBRARY_VERSION } from '../../src/decisions/version'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PYTHON_CLIENT = join(ROOT, 'examples/decide/client.py')
const SHELL_CLIENT = join(ROOT, 'examples/decide/decide.sh')
const TOKEN = 'decide-s3cret'
const NEEDED =
  "R-131's clients run on Debian's python3 and curl (.ci/run installs them when missing: apt-get install python3 curl)"
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `command args` run from the repository with `env` added, as a user runs a client: never synchronously, the service answers in this process. */
const run = (command: string, args: ReadonlyArray<string>, env: Record<string, string>): Promise<Ran> =>
  new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err?.code === 'ENOENT') resolve({ code: null, stdout, stderr: `${command} not found: ${NEEDED}` })
        else resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr })
      }
    )
  })

const python = (url: string, token: string, args: ReadonlyArray<string>) =>
  run('python3', [PYTHON_CLIENT, ...args], { DECIDE_URL: url, DECIDE_TOKEN: token })
const shell = (url: string, token: string, args: ReadonlyArray<string>) =>
  run('sh', [SHELL_CLIENT, ...args], { DECIDE_URL: url, DECIDE_TOKEN: token })

const json = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>

// The cases: two of examples/, and a withdrawal over the balance without a request id (the service gives it one).
const dir = mkdtempSync(join(tmpdir(), 'budget-rules-decide-clients-'))
const TOP_UP = join(ROOT, 'examples/case-top-up.json')
const MANAGER = join(ROOT, 'examples/case-manager-changes-manager.json')
const WITHDRAW = join(dir, 'case-withdraw.json')
writeFileSync(
  WITHDRAW,
  JSON.stringify({
    endpoint: 'budget.withdraw',
    request: { headers: { Authorization: 'Bearer demo-admin', 'company-id': 'c-1' }, body: '{"amount_cents":90000}' },
    session: { user: { id: 'u-1', email_verified: true }, memberships: { 'c-1': { role: 'admin', permissions: [] } } },
    budget: json(join(ROOT, 'examples/budget-monthly.json')),
    today: '2026-11-22'
  })
)
const NOT_A_CASE = join(dir, 'not-a-case.json')
writeFileSync(NOT_A_CASE, '[]')
const CASES = [TOP_UP, MANAGER, WITHDRAW]
/** The bearer key of each case, whose id the record names. */
const KEYS: Record<string, string> = { [TOP_UP]: 'demo-admin', [MANAGER]: 'demo-manager', [WITHDRAW]: 'demo-admin' }

const AT = '2026-01-01T00:00:00.000Z'

/** The library's own answer to the case of `file` as JSON carries it, its record at {@link AT}. */
const libraryAnswer = (file: string, requestId: string): unknown => {
  const answered = answerCase(json(file), { at: AT, request_id: requestId })
  if (answered._tag === 'Left') throw new Error(answered.left)
  return JSON.parse(JSON.stringify(answered.right)) as unknown
}

/**
 * Checks the service's answer to the case of `file` against the library's: equal but for the
 * record's instant, which must be the service's clock while the client ran; the key's id the
 * first 16 hex digits of its SHA-256. A case without `request_id` takes `serviceId` (a UUID, and
 * `.i` after it in a batch). Returns the answer.
 */
const expectLibraryAnswer = (answer: Answer, file: string, since: number, serviceId: RegExp): Answer => {
  const record = answer.record as NonNullable<Answer['record']>
  expect(record).not.toBeNull()
  const caseId = json(file).request_id
  if (typeof caseId === 'string') expect(record.request_id).toBe(caseId)
  else expect(record.request_id).toMatch(serviceId)
  expect(answer.headers['X-Request-Id']).toBe(record.request_id)
  expect(record.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  expect(Date.parse(record.at)).toBeGreaterThanOrEqual(since)
  expect(Date.parse(record.at)).toBeLessThanOrEqual(Date.now())
  const keyId = createHash('sha256')
    .update(KEYS[file] as string)
    .digest('hex')
    .slice(0, 16)
  expect(record.key_id).toBe(keyId)
  expect((record.case as { request: { headers: Record<string, string> } }).request.headers.authorization).toBe(
    `Bearer key:${keyId}`
  )
  expect({ ...answer, record: { ...record, at: AT } }).toStrictEqual(libraryAnswer(file, record.request_id))
  return answer
}

/** The answers a client printed, one line of JSON each. */
const lines = (stdout: string): ReadonlyArray<Answer> =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Answer)

let open: DecisionServiceRunning
let guarded: DecisionServiceRunning

beforeAll(async () => {
  open = await startDecisionService()
  guarded = await startDecisionService({ token: TOKEN })
})

afterAll(async () => {
  await Promise.all([open.close(), guarded.close()])
  rmSync(dir, { recursive: true, force: true })
})

it('finds python3 and curl, which the clients run on (never skipped: without them, this and every client test fail)', () => {
  const missing = ['python3', 'curl'].filter((tool) => spawnSync(tool, ['--version']).error !== undefined)
  expect(missing, `${missing.join(' and ')} not found: ${NEEDED}`).toEqual([])
})

describe('examples/decide/client.py (Python, standard library only)', () => {
  it('decides each case file and prints the library’s answer, one line of JSON with its keys sorted', async () => {
    const since = Date.now()
    const ran = await python(open.url, '', CASES)
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    const answers = lines(ran.stdout)
    expect(answers).toHaveLength(3)
    const [topUp, manager, withdraw] = CASES.map((file, i) => expectLibraryAnswer(answers[i] as Answer, file, since, UUID))
    // The values themselves, as docs/decide.md shows them.
    expect([topUp?.status, topUp?.budget?.balance_cents, topUp?.record?.path, topUp?.record?.key_id]).toEqual([
      200,
      25000,
      '/v1/budgets/b-31/top_up',
      'cce7a2cf1ae04598'
    ])
    expect([manager?.status, manager?.budget, manager?.reasons.at(-1)?.rule]).toEqual([403, null, 'budget.permission.manager'])
    expect([withdraw?.status, withdraw?.body]).toEqual([
      422,
      { errors: { amount_cents: ['must not exceed the balance of 20000 cents'] } }
    ])
    // json.dumps(sort_keys=True, separators=(',', ':')): compact, every object's keys in order.
    const first = ran.stdout.split('\n')[0] as string
    expect(first.startsWith('{"body":{"access":"everyone","balance_cents":25000,')).toBe(true)
  })

  it('decides them as one batch with --batch, in order, a case without request_id taking the batch’s id and its index', async () => {
    const since = Date.now()
    const ran = await python(guarded.url, TOKEN, ['--batch', ...CASES])
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    const answers = lines(ran.stdout)
    expect(answers).toHaveLength(3)
    CASES.forEach((file, i) =>
      expectLibraryAnswer(answers[i] as Answer, file, since, new RegExp(`${UUID.source.slice(0, -1)}\\.${i}$`))
    )
  })

  it('with a wrong token or none: the 401 problem’s message on stderr, nothing on stdout, exit 1', async () => {
    const message = 'The decision service asks for its token: Authorization: Bearer <DECIDE_TOKEN>'
    for (const token of ['wrong', ''])
      for (const args of [[TOP_UP], ['--batch', TOP_UP]])
        expect(await python(guarded.url, token, args)).toEqual({ code: 1, stdout: '', stderr: `401: ${message}\n` })
  })

  it('what is not a case: the 400 problem’s message naming it on stderr, exit 1', async () => {
    expect(await python(open.url, '', [NOT_A_CASE])).toEqual({
      code: 1,
      stdout: '',
      stderr: '400: the case is an array, not a case (a JSON object)\n'
    })
    expect(await python(open.url, '', ['--batch', TOP_UP, NOT_A_CASE])).toEqual({
      code: 1,
      stdout: '',
      stderr: '400: cases[1] is an array, not a case (a JSON object)\n'
    })
  })

  it('docs/decide.md shows its functions as they are in the file', () => {
    const guide = readFileSync(join(ROOT, 'docs/decide.md'), 'utf8')
    const code = readFileSync(PYTHON_CLIENT, 'utf8')
    const blocks = [...guide.matchAll(/^```python\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string)
    expect(blocks.length).toBeGreaterThan(0)
    for (const block of blocks) expect(code).toContain(block)
    expect(blocks.join('')).toMatch(/^def decide\(base_url: str, case: dict\[str, Any\], token: str \| None = None\)/m)
    expect(blocks.join('')).toMatch(/^def decide_batch\(/m)
  })
})

describe('examples/decide/decide.sh (POSIX shell and curl)', () => {
  it('is executable', () => {
    expect(statSync(SHELL_CLIENT).mode & 0o111).toBe(0o111)
  })

  it('posts a case file and prints the answer’s body: the library’s answer', async () => {
    for (const [service, token] of [
      [open, ''],
      [guarded, TOKEN]
    ] as const)
      for (const file of CASES) {
        const since = Date.now()
        const ran = await shell(service.url, token, [file])
        expect([ran.code, ran.stderr]).toEqual([0, ''])
        expect(ran.stdout.endsWith('}\n')).toBe(true)
        expectLibraryAnswer(JSON.parse(ran.stdout) as Answer, file, since, UUID)
      }
  })

  it('posts case files as one batch with --batch: { "answers": [...] } in order', async () => {
    const since = Date.now()
    const ran = await shell(guarded.url, TOKEN, ['--batch', ...CASES])
    expect([ran.code, ran.stderr]).toEqual([0, ''])
    const { answers } = JSON.parse(ran.stdout) as { answers: ReadonlyArray<Answer> }
    expect(answers).toHaveLength(3)
    CASES.forEach((file, i) =>
      expectLibraryAnswer(answers[i] as Answer, file, since, new RegExp(`${UUID.source.slice(0, -1)}\\.${i}$`))
    )
  })

  it('with a wrong token or none: the 401 problem’s body on stderr, nothing on stdout, exit 1', async () => {
    const body =
      '{"error":"unauthorized","message":"The decision service asks for its token: Authorization: Bearer <DECIDE_TOKEN>"}'
    for (const token of ['wrong', '']) {
      const ran = await shell(guarded.url, token, [TOP_UP])
      expect([ran.code, ran.stdout]).toEqual([1, ''])
      expect(ran.stderr.split('\n')).toEqual(['curl: (22) The requested URL returned error: 401', body, ''])
    }
  })

  it('what is not a case: the 400 problem’s body on stderr, exit 1', async () => {
    const ran = await shell(open.url, '', [NOT_A_CASE])
    expect([ran.code, ran.stdout]).toEqual([1, ''])
    expect(ran.stderr).toContain('{"error":"bad_request","message":"the case is an array, not a case (a JSON object)"}\n')
  })
})

describe('docs/decide.md', () => {
  const guide = readFileSync(join(ROOT, 'docs/decide.md'), 'utf8')
  const blocks = [...guide.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map(
    (m) => JSON.parse(m[1] as string) as Record<string, unknown>
  )

  it('shows examples/case-top-up.json as it is, and the library’s answer to it, whole', () => {
    expect(blocks.filter((b) => b.endpoint === 'budget.top_up')).toEqual([json(TOP_UP)])
    const shown = blocks.filter((b) => Object.hasOwn(b, 'record'))
    expect(shown).toHaveLength(1)
    const record = (shown[0] as { record: { at: string; library_version: string } }).record
    // The page names a version; the library's own is the package's, which moves on.
    expect(record.library_version).toMatch(/^\d+\.\d+\.\d+$/)
    const answered = answerCase(json(TOP_UP), { at: record.at })
    if (answered._tag === 'Left') throw new Error(answered.left)
    const expected = JSON.parse(JSON.stringify(answered.right)) as { record: { library_version: string } }
    expect(expected.record.library_version).toBe(LIBRARY_VERSION)
    expect(shown[0]).toStrictEqual({ ...expected, record: { ...expected.record, library_version: record.library_version } })
  })
})
