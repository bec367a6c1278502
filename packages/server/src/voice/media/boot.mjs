// Worker entry: TypeScript sources need tsx's loader registered inside the worker thread as well.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
