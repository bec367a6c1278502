/**
 * A command's options as an interaction carries them, from `{ name: value }` and the command's definition: each value
 * typed as its option is (strings, integers, numbers, booleans, ids for users, channels, roles and mentionables),
 * nested under the subcommand group and subcommand the path names.
 */
const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;
const STRING = 3;
const INTEGER = 4;
const BOOLEAN = 5;
const NUMBER = 10;

/** `focused`: the option being typed (autocomplete): sent as typed text, flagged focused, and required ones may wait. */
export function commandOptions(command: { name: string; options?: any[] }, path: string[], values: Record<string, unknown>, focused?: string): unknown[] {
  let defs = command.options ?? [];
  const chain: { name: string; type: number }[] = [];
  for (const part of path) {
    const sub = defs.find((o) => o.name === part && (o.type === SUB_COMMAND || o.type === SUB_COMMAND_GROUP));
    if (!sub)
      throw new Error(
        `/${command.name} has no subcommand "${part}"; it has: ${
          defs
            .filter((o) => o.type <= 2)
            .map((o) => o.name)
            .join(', ') || 'none'
        }`,
      );
    chain.push({ name: sub.name, type: sub.type });
    defs = sub.options ?? [];
  }
  const leaf = Object.entries(values).map(([name, value]) => {
    const def = defs.find((o) => o.name === name);
    if (!def) throw new Error(`/${[command.name, ...path].join(' ')} has no option "${name}"; it has: ${defs.map((o) => o.name).join(', ') || 'none'}`);
    if (name === focused) return { name, type: def.type, value: String(value), focused: true };
    return { name, type: def.type, value: typed(def.type, value, name) };
  });
  if (focused !== undefined && !(focused in values)) throw new Error(`the focused option "${focused}" needs a value (the text typed so far)`);
  const missing = defs.filter((o) => o.required && !(o.name in values)).map((o) => o.name);
  if (missing.length && focused === undefined) throw new Error(`/${[command.name, ...path].join(' ')} needs ${missing.join(', ')}`);
  return chain.reduceRight<unknown[]>((inner, sub) => [{ name: sub.name, type: sub.type, options: inner }], leaf);
}

function typed(type: number, value: unknown, name: string): unknown {
  switch (type) {
    case STRING:
      return String(value);
    case INTEGER:
    case NUMBER: {
      const n = Number(value);
      if (!Number.isFinite(n) || (type === INTEGER && !Number.isInteger(n)))
        throw new Error(`option "${name}" wants ${type === INTEGER ? 'an integer' : 'a number'}, not ${JSON.stringify(value)}`);
      return n;
    }
    case BOOLEAN:
      return Boolean(value);
    default:
      return typeof value === 'object' && value && 'id' in value ? String((value as { id: string }).id) : String(value);
  }
}
