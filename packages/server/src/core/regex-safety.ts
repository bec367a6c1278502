/**
 * Patterns that guild admins give auto-moderation run on every member's message, on the server's one thread. The
 * platform's engine runs in linear time and has no backreferences or lookaround; JavaScript's backtracks. This check
 * refuses what the platform would not run (backreferences, lookaround) and the classic catastrophic shape, an
 * unbounded quantifier on a group that itself holds one (`(a+)+`, `(\w*\s?)*`), so one pattern cannot stall the
 * server for every guild (issue 14). It reads the pattern once, left to right, with no recursion.
 */
export function regexRisk(pattern: string): string | null {
  const stack: { unbounded: boolean }[] = [{ unbounded: false }];
  const BIG = 16; // {n,m} with m above this counts as unbounded
  /** Length of a quantifier at i (0: none) and whether it is unbounded. */
  const quantifier = (i: number): [number, boolean] => {
    const c = pattern[i];
    if (c === '*' || c === '+') return [pattern[i + 1] === '?' || pattern[i + 1] === '+' ? 2 : 1, true];
    if (c === '?') return [1, false];
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}\??/.exec(pattern.slice(i, i + 24));
      if (m) return [m[0].length, m[2] !== undefined && (m[3] === '' || Number(m[3]) > BIG)];
    }
    return [0, false];
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1];
      if (/[1-9]/.test(n ?? '') || (n === 'k' && pattern[i + 2] === '<')) return 'backreference';
      i++;
      const [len, unbounded] = quantifier(i + 1);
      if (unbounded) stack[stack.length - 1].unbounded = true;
      i += len;
    } else if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      const [len, unbounded] = quantifier(i + 1);
      if (unbounded) stack[stack.length - 1].unbounded = true;
      i += len;
    } else if (c === '(') {
      if (/^\(\?(=|!|<=|<!)/.test(pattern.slice(i, i + 4))) return 'lookaround';
      stack.push({ unbounded: false });
    } else if (c === ')') {
      const inner = stack.length > 1 ? stack.pop()! : { unbounded: false };
      const [len, unbounded] = quantifier(i + 1);
      if (unbounded && inner.unbounded) return 'nested quantifier';
      if (unbounded || inner.unbounded) stack[stack.length - 1].unbounded = true;
      i += len;
    } else {
      const [len, unbounded] = quantifier(i + 1);
      if (unbounded) stack[stack.length - 1].unbounded = true;
      i += len;
    }
  }
  return null;
}
