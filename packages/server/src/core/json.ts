/**
 * JSON.parse that keeps every digit of integers beyond 2^53.
 *
 * Clients such as discord.py send snowflakes as JSON numbers (`message_reference.message_id`, the `messages` of a
 * bulk delete, `guild_id` in Gateway op 8). Plain JSON.parse rounds them to the nearest double, so the id is wrong
 * before any validator sees it. Here an integer literal that is not a safe integer is read as its digit string, which
 * the id validators accept; every other value parses exactly as JSON.parse would.
 */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  // Depth is checked on the text first: a value nested thousands deep parses, but every later recursive walk over it
  // (JSON.stringify, validators, error builders) would overflow the stack.
  if (nestingExceeds(text, maxDepth)) throw new SyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  // Fast path: an unsafe integer needs at least 16 digits in a row.
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  return JSON.parse(quoteUnsafeIntegers(text));
}

/**
 * The deepest nesting any request body or Gateway payload may have. The deepest real payloads (components v2 inside
 * containers, command option trees, embeds) stay under 16 levels.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether brackets outside strings nest deeper than `max`: one linear pass, no recursion. */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = closingQuote(text, i);
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opening at `start` (escapes skipped), or the text's length. */
function closingQuote(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 0x5c /* \ */) i += 2;
    else if (d === 0x22) return i;
    else i++;
  }
  return i;
}

const LONG_DIGITS = /\d{16}/;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** Rewrites integer literals outside strings that do not fit a double exactly as JSON strings of their digits. */
export function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i) + 1;
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) {
        i++;
        continue;
      }
      const lit = m[0];
      const end = i + lit.length;
      if (!m[1] && !m[2] && lit.replace('-', '').length >= 16 && !Number.isSafeInteger(Number(lit))) {
        out += text.slice(copied, i) + '"' + lit + '"';
        copied = end;
      }
      i = end;
      continue;
    }
    i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
