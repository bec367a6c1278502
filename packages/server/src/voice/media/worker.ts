import { parentPort, workerData } from 'node:worker_threads';
import { MediaHost, type MediaCommand } from './host.js';

/** A media worker: one UDP port and its SFU on its own thread. Requests carry an id when they expect an answer. */
const host = new MediaHost((event) => parentPort!.postMessage({ event }));
parentPort!.on('message', (msg: { id?: number; cmd: MediaCommand } | { close: true }) => {
  if ('close' in msg) {
    host.close();
    parentPort!.close();
    return;
  }
  const result = host.command(msg.cmd);
  if (msg.id !== undefined) parentPort!.postMessage({ id: msg.id, result });
});
host.listen(workerData.host, workerData.port).catch((err) => parentPort!.postMessage({ error: String(err?.message ?? err) }));
