import { devHeaders, type TestServer } from './server.js';

/** Calls the faults API of a --dev server (`/__dev/faults…`) with the dev token; JSON in, status and JSON out. */
export async function faultsApi(t: TestServer, method: string, path = '', body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...devHeaders(t) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.server.url}/__dev/faults${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Makes a fault (POST /__dev/faults) and returns its answer, which must be 201. */
export async function addFault(t: TestServer, body: Record<string, unknown>): Promise<any> {
  const r = await faultsApi(t, 'POST', '', body);
  if (r.status !== 201) throw new Error(`POST /__dev/faults answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Removes every rule of every application. */
export async function clearFaults(t: TestServer): Promise<void> {
  await faultsApi(t, 'DELETE');
}
