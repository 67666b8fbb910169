import { describe, expect, it } from 'vitest'
import { rawQuery } from '../../src/http/raw-query'
import { index, transactions } from '../paging/fixtures'

const ids = (body: unknown) => (body as ReadonlyArray<{ id: string }>).map((r) => r.id)
const ten = transactions(10)
const BASE = 'https://api.example/v1/bank-transactions'

describe('rawQuery: the query a facade takes, from what a framework gives (R-106)', () => {
  it('reads `?_start=3&_end=5` as the page from 3, where the same text passed as it is is the client’s 400', () => {
    const read = index(rawQuery('?_start=3&_end=5'), ten)
    expect([read.status, read.headers['Content-Range'], ids(read.body)]).toEqual([200, '3-4/10', ['tx-0003', 'tx-0004']])
    const raw = index('?_start=3&_end=5', ten)
    expect([raw.status, raw.body]).toEqual([
      400,
      { error: 'bad_request', message: '?_start is not a field of /v1/banking/bank_transactions' }
    ])
  })

  it('takes a URL, its search, its URLSearchParams, a request target and the bare query alike', () => {
    const url = new URL(`${BASE}?_start=2&_end=4&amount%5B%24gte%5D=0&_order=desc#frag`)
    // The URL written whole too: Hono's c.req.url, a Request's url.
    const forms = [url, url.href, url.search, url.searchParams, `/v1/bank-transactions${url.search}`, url.search.slice(1)]
    const replies = forms.map((form) => index(rawQuery(form), ten))
    expect(replies.map((r) => [r.status, r.headers['Content-Range'], ids(r.body)])).toEqual(
      forms.map(() => [200, '2-3/10', ['tx-0007', 'tx-0006']])
    )
    expect(forms.map((form) => [...new URLSearchParams(rawQuery(form))])).toEqual(
      forms.map(() => [
        ['_start', '2'],
        ['_end', '4'],
        ['amount[$gte]', '0'],
        ['_order', 'desc']
      ])
    )
  })

  it('keeps the text of a string and a URL byte for byte, drops one leading `?` and a URL’s fragment', () => {
    expect(
      [
        '?a=1',
        'a=1',
        '??a=1',
        '',
        '?',
        'a=%3F&b=c',
        '/v1/budgets',
        '/v1/budgets?',
        '/v1/budgets?a=1?b=2',
        new URL(BASE),
        new URL(`${BASE}?`),
        new URL(`${BASE}?x=%20y#z`),
        'http://127.0.0.1:3000/v1/budgets',
        'https://api.example/v1/budgets?a=1?b=2#c?d',
        'HTTP://api.example/#frag?a=1',
        'http://[not a url?a=1',
        'mailto:x?a=1'
      ].map(rawQuery)
    ).toEqual([
      'a=1',
      'a=1',
      '?a=1',
      '',
      '',
      'a=%3F&b=c',
      '',
      '',
      'a=1?b=2',
      '',
      '',
      'x=%20y',
      '',
      'a=1?b=2',
      '',
      'a=1',
      'mailto:x?a=1'
    ])
  })

  it('writes URLSearchParams as a form writes them', () => {
    expect(
      rawQuery(
        new URLSearchParams([
          ['name', 'a b'],
          ['amount[$gte]', '10']
        ])
      )
    ).toBe('name=a+b&amount%5B%24gte%5D=10')
    expect(rawQuery(new URLSearchParams())).toBe('')
  })

  it('throws a TypeError naming a value of no type it takes (R-19), a JavaScript caller’s undefined among them', () => {
    const thrown = [undefined, null, 1, { search: '?a=1' }].map((source) => {
      try {
        rawQuery(source as never)
        return 'returned'
      } catch (e) {
        return [e instanceof TypeError, (e as Error).message]
      }
    })
    const expected = (value: string) => [true, `rawQuery: source is ${value}, not a URL, URLSearchParams or a query string`]
    expect(thrown).toEqual([expected('undefined'), expected('null'), expected('1'), expected('an object')])
  })
})
