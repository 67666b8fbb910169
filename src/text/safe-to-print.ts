/**
 * Text from a request or a record made safe to print on a terminal: every character a
 * terminal obeys rather than shows (the C0 controls, newline and tab included, DEL, the C1
 * controls, and the bidirectional controls U+202A..U+202E and U+2066..U+2069) written as its
 * `\uXXXX` escape, so that no recorded byte can move the cursor, clear the screen, set a title,
 * ring the bell, forge a line of the output or reorder its text. Everything else is kept as it
 * is, backslashes too: a printout is read by a person, and the JSON forms (`--json`, exports)
 * stay unambiguous because JSON already doubles a backslash.
 *
 * A printout applies it to each of its lines: its own line breaks are the only ones left.
 *
 * @example
 * safeToPrint('\x1b[2J\x1b]0;owned\x07') //=> '\\u001b[2J\\u001b]0;owned\\u0007'
 * safeToPrint('Ana Pérez 💶') //=> 'Ana Pérez 💶'
 *
 * @since 0.4.0
 */

// C0 (newline and tab too: a value is one line of a printout), DEL, C1, and the bidi controls.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OBEYED = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * `text` with each character a terminal would obey as its `\uXXXX` escape (four lower-case hex
 * digits, as JSON writes them).
 *
 * @example
 * safeToPrint('line 1\nline 2') //=> 'line 1\\u000aline 2'
 * safeToPrint('\u009b31m\u007f') //=> '\\u009b31m\\u007f'
 * safeToPrint('abc\u202edef\u2066') //=> 'abc\\u202edef\\u2066'
 *
 * @category utils
 * @since 0.4.0
 */
export const safeToPrint = (text: string): string =>
  text.replace(OBEYED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/**
 * A text of several lines, each made safe to print: its line breaks kept, every other control
 * escaped. For a text whose only line breaks are the printout's own, as `JSON.stringify` writes
 * them (it escapes those of the values).
 *
 * @example
 * safeLinesToPrint(JSON.stringify({ name: '\u009b2J' }, null, 2)) //=> '{\n  "name": "\\u009b2J"\n}'
 *
 * @category utils
 * @since 0.4.0
 */
export const safeLinesToPrint = (text: string): string => text.split('\n').map(safeToPrint).join('\n')
