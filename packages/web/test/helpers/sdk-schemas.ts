import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The Embedded App SDK's own parsers, loaded from the installed package (its `exports` only expose the entry point,
 * so the schema module is imported by file path): `parseIncomingPayload` is what the SDK runs on every frame its
 * parent sends, and `ClosePayload` what it runs on CLOSE.
 */
export interface SdkSchemas {
  version: string;
  parseIncomingPayload(payload: unknown): any;
  ClosePayload: { parse(v: unknown): unknown };
}

const require = createRequire(import.meta.url);

export async function loadSdkSchemas(pkg: '@discord/embedded-app-sdk' | 'eas21'): Promise<SdkSchemas> {
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  const mod = await import(pathToFileURL(path.join(dir, 'output', 'schema', 'index.mjs')).href);
  const version = require(`${pkg}/package.json`).version as string;
  return { version, parseIncomingPayload: mod.parseIncomingPayload, ClosePayload: mod.ClosePayload };
}

/** Parses one message the parent sent, exactly as the SDK would; throws what the SDK would only log. */
export function checkMessage(schemas: SdkSchemas, message: unknown): void {
  if (!Array.isArray(message) || message.length !== 2) throw new Error(`not an [opcode, payload] pair: ${JSON.stringify(message)}`);
  const [op, payload] = message;
  if (op === 1) schemas.parseIncomingPayload(payload);
  else if (op === 2) schemas.ClosePayload.parse(payload);
  else throw new Error(`the parent never sends opcode ${op}`);
}
