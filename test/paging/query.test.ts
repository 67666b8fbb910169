import { either } from 'fp-ts'
import { describe, expect, it } from 'vitest'
import { encodeQuery } from '../../src/http/query-string'
import { decodeQuery } from '../../src/paging/query'

const bad = (detail: string) => either.left({ _tag: 'BadRequest', rule: 'page.query', message: detail, detail })

// Spec section 4: the query string of an index request.
describe('decodeQuery', () => {
  it.each<[string, string, ReadonlyArray<[string, string]>]>([
    ['nothing', '', []],
    ['one parameter', 'a=1', [['a', '1']]],
    [
      'parameters in order',
      '_end=5&_start=0',
      [
        ['_end', '5'],
        ['_start', '0']
      ]
    ],
    [
      'empty segments, skipped',
      '&a=1&&b=2&',
      [
        ['a', '1'],
        ['b', '2']
      ]
    ],
    [
      'a segment without =, as the empty value',
      'a&b=',
      [
        ['a', ''],
        ['b', '']
      ]
    ],
    ['a value holding =', 'a==b=c', [['a', '=b=c']]],
    ['an empty key', '=x', [['', 'x']]],
    ['escapes and + as a space', 'name%5B%24in%5D=%5B%22a+b%22%5D', [['name[$in]', '["a b"]']]]
  ])('reads %s', (_, query, parameters) => {
    expect(decodeQuery(query)).toEqual(either.right(parameters))
  })

  it.each<[string, string, string]>([
    ['a bad escape in a value', 'a=%E0%A4%A', 'The query has a malformed % escape'],
    ['a bad escape in a key', '%zz=1', 'The query has a malformed % escape'],
    ['an escaped lone surrogate', 'a=%ED%A0%80', 'The query has a malformed % escape'],
    ['a lone surrogate as text', 'a=\ud800', 'The query holds a lone surrogate'],
    ['a repeated key', 'a=1&b=2&a=3', 'The parameter a is repeated'],
    ['a key repeated once decoded', 'a=1&%61=2', 'The parameter a is repeated']
  ])('refuses %s', (_, query, detail) => {
    expect(decodeQuery(query)).toEqual(bad(detail))
  })

  it('takes 100 parameters, empty segments not counted, and refuses 101', () => {
    const params = (n: number) => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&')
    expect(either.isRight(decodeQuery(params(100)))).toBe(true)
    expect(either.isRight(decodeQuery(`${params(100)}&&&`))).toBe(true)
    expect(decodeQuery(params(101))).toEqual(bad('The query has 101 parameters, more than 100'))
  })
})

describe('encodeQuery', () => {
  it('percent-encodes keys and values and joins them with &, the inverse of decodeQuery', () => {
    const parameters: ReadonlyArray<[string, string]> = [
      ['id[$in]', '["a b","c&d"]'],
      ['name', 'Ñuñoa = 100%'],
      ['', '']
    ]
    const query = encodeQuery(parameters)
    expect(query).toBe('id%5B%24in%5D=%5B%22a%20b%22%2C%22c%26d%22%5D&name=%C3%91u%C3%B1oa%20%3D%20100%25&=')
    expect(decodeQuery(query)).toEqual(either.right(parameters))
    expect(encodeQuery([])).toBe('')
  })
})
