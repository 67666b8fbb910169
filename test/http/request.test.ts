import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { HeadersCodec, Request } from '../../src/http/request'

/** What the Request codec says of headers it refuses: each error's message and value. */
const refusalOf = (headers: unknown): ReadonlyArray<{ readonly message: string | undefined; readonly value: unknown }> => {
  const decoded = Request.decode({ headers })
  return either.isLeft(decoded) ? decoded.left.map((e) => ({ message: e.message, value: e.value })) : []
}

// Contract section 2: the headers a server hands a facade, and why malformed ones are refused (the
// 500's detail names the path; the message says which header, for the server's log).
describe('the Request codec explains the headers it refuses', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string (whose characters would read as headers)', 'a: x'],
    ['an array of pairs', [['a', 'x']]]
  ])('%s is not an object', (_, headers) => {
    expect(refusalOf(headers)).toEqual([{ message: 'headers must be an object', value: headers }])
  })

  it('names the header whose value is neither a string nor a list of strings', () => {
    expect(refusalOf({ accept: 'text/plain', 'x-count': 5 })).toEqual([
      { message: 'header x-count is not a string or a list of strings', value: 5 }
    ])
    expect(refusalOf({ 'set-cookie': ['a=1', 2] })).toEqual([
      { message: 'header set-cookie is not a string or a list of strings', value: ['a=1', 2] }
    ])
  })

  it('names the header whose getter throws', () => {
    const headers = Object.defineProperty({ accept: 'text/plain' }, 'authorization', {
      enumerable: true,
      get: () => {
        throw new Error('boom')
      }
    })
    expect(refusalOf(headers)).toEqual([{ message: 'header authorization cannot be read', value: headers }])
  })

  it('says a revoked proxy cannot be read', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    // Compared piece by piece: an equality check would itself ask the revoked proxy questions.
    const refusal = refusalOf(proxy)
    expect(refusal.map((e) => e.message)).toEqual(['headers cannot be read'])
    expect(refusal[0]?.value).toBe(proxy)
  })

  it('returns the very object given, plain or Headers-like', () => {
    const plain = { accept: 'text/plain', 'set-cookie': ['a=1'], absent: undefined }
    const fetchHeaders = new Headers({ accept: 'text/plain' })
    expect(HeadersCodec.decode(plain)).toEqual(either.right(plain))
    const decoded = HeadersCodec.decode(fetchHeaders)
    expect(either.isRight(decoded) && decoded.right).toBe(fetchHeaders)
  })
})
