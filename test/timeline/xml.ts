/**
 * A small XML reader for the tests of the SVG timeline, written apart from src/timeline: it
 * finds what makes a document not well-formed (unbalanced or crossed tags, a raw `<` or `&` in
 * text or attributes, an attribute twice, characters XML cannot hold, text outside the root),
 * and reads elements, attributes and text back, entities decoded.
 */

export interface Element {
  readonly name: string
  readonly attributes: Readonly<Record<string, string>>
  /** The text directly inside the element, entities decoded. */
  readonly text: string
  readonly children: ReadonlyArray<Element>
}

const ENTITY = /&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/y
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

const allowedCodePoint = (cp: number) =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  (cp >= 0x10000 && cp <= 0x10ffff)

/** Text with its entities decoded, or an error naming the first `&` that starts none (or a raw `<`). */
const decode = (raw: string, where: string): string => {
  let out = ''
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string
    if (c === '<') throw new Error(`raw < in ${where}`)
    if (c !== '&') {
      out += c
      continue
    }
    ENTITY.lastIndex = i
    const m = ENTITY.exec(raw)
    if (m === null) throw new Error(`raw & in ${where} at ${i}`)
    const name = m[1] as string
    out += name.startsWith('#x')
      ? String.fromCodePoint(parseInt(name.slice(2), 16))
      : name.startsWith('#')
        ? String.fromCodePoint(Number(name.slice(1)))
        : (NAMED[name] as string)
    i += m[0].length - 1
  }
  return out
}

const TAG = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[A-Za-z][\w:.-]*="[^"]*")*)\s*(\/?)>/y
const ATTRIBUTE = /([A-Za-z][\w:.-]*)="([^"]*)"/g

/** The document's root element; throws an Error naming the first thing that is not well-formed. */
export const parseXml = (xml: string): Element => {
  for (const ch of xml) {
    const cp = ch.codePointAt(0) as number
    if (!allowedCodePoint(cp)) throw new Error(`character U+${cp.toString(16)} is not allowed in XML`)
  }
  interface Open {
    name: string
    attributes: Record<string, string>
    text: string
    children: Array<Element>
  }
  const stack: Array<Open> = []
  let root: Element | undefined
  let i = 0
  while (i < xml.length) {
    const lt = xml.indexOf('<', i)
    const text = xml.slice(i, lt < 0 ? xml.length : lt)
    const top = stack[stack.length - 1]
    if (top === undefined) {
      if (text.trim() !== '') throw new Error(`text outside the root: ${JSON.stringify(text.slice(0, 20))}`)
    } else top.text += decode(text, `the text of <${top.name}>`)
    if (lt < 0) break
    TAG.lastIndex = lt
    const m = TAG.exec(xml)
    if (m === null) throw new Error(`not a tag at ${lt}: ${JSON.stringify(xml.slice(lt, lt + 30))}`)
    const [whole, closing, name, attributeText, selfClosing] = m as unknown as [string, string, string, string, string]
    if (closing === '/') {
      if (attributeText !== '' || selfClosing !== '') throw new Error(`a closing tag with more: ${whole}`)
      const open = stack.pop()
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`)
      const element = { name: open.name, attributes: open.attributes, text: open.text, children: open.children }
      const parent = stack[stack.length - 1]
      if (parent === undefined) root = element
      else parent.children.push(element)
    } else {
      if (root !== undefined) throw new Error(`a second root: <${name}>`)
      const attributes: Record<string, string> = {}
      for (const a of attributeText.matchAll(ATTRIBUTE)) {
        const key = a[1] as string
        if (key in attributes) throw new Error(`attribute ${key} twice on <${name}>`)
        attributes[key] = decode(a[2] as string, `attribute ${key} of <${name}>`)
      }
      const open = { name, attributes, text: '', children: [] }
      if (selfClosing === '/') {
        const parent = stack[stack.length - 1]
        if (parent === undefined) root = open
        else parent.children.push(open)
      } else stack.push(open)
    }
    i = lt + whole.length
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]?.name ?? ''}> is never closed`)
  if (root === undefined) throw new Error('no root element')
  return root
}

/** Every element under `e` (itself included), in document order. */
export const descendants = (e: Element): Array<Element> => [e, ...e.children.flatMap(descendants)]
