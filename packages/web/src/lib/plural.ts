const rules = new Intl.PluralRules('en-US');

/** "1 Message", "2 Messages": the count with the form English needs for it. */
export function plural(n: number, one: string, other: string): string {
  return `${n} ${rules.select(n) === 'one' ? one : other}`;
}
