/** A WebSocket in any runtime: the platform's own when there is one (browsers, Node 22+), else the `ws` package. */
export interface SocketLike {
  readyState: number;
  send(data: string | ArrayBufferLike | Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  binaryType?: string;
}

export interface SocketOptions {
  /** Extra CA certificates (PEM) to trust: a self-hosted voice gateway's own CA (Node only). */
  ca?: string | Buffer;
}

export async function openSocket(url: string, opts: SocketOptions = {}): Promise<SocketLike> {
  const Native = (globalThis as { WebSocket?: new (url: string) => SocketLike }).WebSocket;
  if (Native && !opts.ca) return new Native(url);
  const { default: WS } = await import('ws');
  const ws = new WS(url, opts.ca ? { ca: opts.ca } : {});
  ws.binaryType = 'nodebuffer';
  return ws as unknown as SocketLike;
}
