import type { Socket } from 'node:net';

const corked = new Set<Socket>();
let scheduled = false;

/**
 * Holds a socket's writes until the current turn of the event loop ends, so the frames one dispatch (or a burst of
 * dispatches) sends to a connection leave in one write instead of one syscall each.
 */
export function corkUntilNextTick(socket: Socket | undefined): void {
  if (!socket || corked.has(socket)) return;
  socket.cork();
  corked.add(socket);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
}

function flush(): void {
  scheduled = false;
  for (const s of corked) s.uncork();
  corked.clear();
}
