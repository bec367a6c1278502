/**
 * The LIMIT the issue-16 suite measures Accord against: a minimal server doing only the work a message create and
 * its fan-out need, on the same machine, driven by the same load generator in the same run.
 *
 *   node --import tsx bench/minimal-server.ts [--db <file>|none] [--ready-bytes N]
 *
 * - plain node:http; POST /api/v10/channels/:id/messages parses the JSON body, runs one prepared better-sqlite3
 *   insert (WAL, synchronous=NORMAL, as Accord's store), serializes the message once and answers it;
 * - plain `ws` Gateway: HELLO on connect; an Identify (op 2) is answered with a READY frame padded to --ready-bytes
 *   (the size of Accord's READY, so the identify-storm limit writes the same bytes); op 1 gets op 11;
 * - fan-out: the MESSAGE_CREATE frame is built once per message; only the per-connection `"s":N` head is spliced in
 *   (every real gateway must number its frames), and socket writes are corked until the end of the event-loop turn
 *   (as packages/server/src/gateway/cork.ts does);
 * - `--db none` skips the insert: the same route is then a raw `ws` broadcast of the frame to every listener;
 * - `--pg <url> --pg-schema <schema>` writes to PostgreSQL instead, with group commit: the messages of one event-loop
 *   turn go in ONE multi-row INSERT (one round trip), and each request is answered once its row is committed
 *   (`--pg-pool`, default 4 connections, lets the next turn's batch start while one is in flight);
 * - `--redis <url>` also PUBLISHes each message on Redis (not awaited), as a distributed server's bus does once per
 *   message create;
 * - `--workers N` serves one port from N processes (node:cluster, as `accord start --workers N`): the limit of what a
 *   second process can add on this machine.
 * Prints `listening <port>` on stdout when ready (every worker listening).
 */
import cluster from 'node:cluster';
import http from 'node:http';
import type { Socket } from 'node:net';
import Database from 'better-sqlite3';
import { WebSocketServer, type WebSocket } from 'ws';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
};
const dbFile = arg('db', 'none');
const readyBytes = Number(arg('ready-bytes', '2048'));
const workers = Number(arg('workers', '1'));
const workerIndex = Number(process.env.MINIMAL_WORKER ?? 0);

const pgUrl = arg('pg', '');
const schema = arg('pg-schema', 'public').replace(/"/g, '');
if (pgUrl && cluster.isPrimary) {
  // Before any worker: they would race on creating them.
  const { default: pg } = await import('pg');
  const setup = new pg.Client({ connectionString: pgUrl });
  await setup.connect();
  await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await setup.query(
    `CREATE TABLE IF NOT EXISTS "${schema}".messages (id BIGINT PRIMARY KEY, channel_id BIGINT NOT NULL, author_id BIGINT NOT NULL, content TEXT NOT NULL, created_at TEXT NOT NULL)`,
  );
  await setup.end();
}

if (workers > 1 && cluster.isPrimary) {
  let up = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork({ MINIMAL_WORKER: String(i) }).on('message', (m: { listening?: number }) => {
      if (m.listening && ++up === workers) process.stdout.write(`listening ${m.listening}\n`);
    });
  }
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    process.exit(0);
  });
  await new Promise(() => {}); // the primary only forks: the server below runs in the workers
}

/** `--redis`: one PUBLISH per message. */
let publish: ((body: string) => void) | null = null;
const redisUrl = arg('redis', '');
if (redisUrl) {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl);
  const channel = `minimal-bench:${process.ppid}`;
  publish = (body) => void redis.publish(channel, body).catch(() => {});
}

let insert: ((id: string, channel: string, author: string, content: string, ts: string) => void) | null = null;
/** PostgreSQL: queues the row; `done` runs once the batch holding it is committed. */
let insertPg: ((row: unknown[], done: (err?: Error) => void) => void) | null = null;
if (pgUrl) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: pgUrl, max: Number(arg('pg-pool', '4')), options: `-c search_path="${schema}"` });
  let pending: { row: unknown[]; done: (err?: Error) => void }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    const params = batch.flatMap((p) => p.row);
    const values = batch.map((_, i) => `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5})`).join(', ');
    pool.query(`INSERT INTO messages (id, channel_id, author_id, content, created_at) VALUES ${values}`, params).then(
      () => {
        for (const p of batch) p.done();
      },
      (err: Error) => {
        for (const p of batch) p.done(err);
      },
    );
  };
  insertPg = (row, done) => {
    pending.push({ row, done });
    if (pending.length === 1) setImmediate(flush);
  };
}
if (dbFile !== 'none' && !pgUrl) {
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, channel_id TEXT NOT NULL, author_id TEXT NOT NULL, content TEXT NOT NULL, created_at TEXT NOT NULL)',
  );
  const stmt = db.prepare('INSERT INTO messages (id, channel_id, author_id, content, created_at) VALUES (?, ?, ?, ?, ?)');
  insert = (id, channel, author, content, ts) => {
    stmt.run(id, channel, author, content, ts);
  };
}

// A message object of the same shape and about the same size as Accord's MESSAGE_CREATE of a bot message.
const AUTHOR = {
  id: '1000000000000000001',
  username: 'bench-bot',
  avatar: null,
  discriminator: '0000',
  public_flags: 0,
  flags: 0,
  bot: true,
  banner: null,
  accent_color: null,
  global_name: null,
  avatar_decoration_data: null,
  banner_color: null,
  clan: null,
  primary_guild: null,
};
const GUILD_ID = '1000000000000000002';
let nextId = 1_300_000_000_000_000_000n + BigInt(workerIndex) * 10n ** 15n; // workers never share an id

// ------------------------------------------------------------------------------------------------ gateway
interface Conn {
  ws: WebSocket;
  seq: number;
  socket: Socket;
  identified: boolean;
}
const listeners = new Set<Conn>();
const corked = new Set<Socket>();
let flushScheduled = false;
const flush = () => {
  flushScheduled = false;
  for (const s of corked) s.uncork();
  corked.clear();
};
function cork(s: Socket) {
  if (corked.has(s)) return;
  s.cork();
  corked.add(s);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flush);
  }
}

const HELLO = JSON.stringify({ op: 10, d: { heartbeat_interval: 600_000 }, s: null, t: null });
const ACK = JSON.stringify({ op: 11 });
function readyFrame(): string {
  const head = '{"op":0,"s":1,"t":"READY","d":{"v":10,"session_id":"minimal","pad":"';
  const tail = '"}}';
  return head + 'x'.repeat(Math.max(0, readyBytes - head.length - tail.length)) + tail;
}
const READY = readyFrame();

const HEAD = Buffer.from('{"op":0,"s":');
function broadcast(tail: Buffer) {
  // tail = `,"t":"MESSAGE_CREATE","d":{...}}`, shared by every connection; only the seq differs.
  for (const c of listeners) {
    c.seq++;
    cork(c.socket);
    c.ws.send(Buffer.concat([HEAD, Buffer.from(String(c.seq)), tail]), { binary: false });
  }
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || !/^\/api\/v10\/channels\/\d+\/messages$/.test(req.url ?? '')) {
    res.writeHead(404).end('{"message":"404: Not Found","code":0}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let content: string;
    try {
      content = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).content ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Invalid JSON","code":50109}');
      return;
    }
    const channel = req.url!.split('/')[4];
    const id = String(nextId++);
    const ts = new Date().toISOString();
    insert?.(id, channel, AUTHOR.id, content, ts);
    const answer = () => {
      const body = JSON.stringify({
        type: 0,
        content,
        mentions: [],
        mention_roles: [],
        attachments: [],
        embeds: [],
        timestamp: ts,
        edited_timestamp: null,
        flags: 0,
        components: [],
        id,
        channel_id: channel,
        author: AUTHOR,
        pinned: false,
        mention_everyone: false,
        tts: false,
        guild_id: GUILD_ID,
      });
      if (listeners.size) broadcast(Buffer.from(`,"t":"MESSAGE_CREATE","d":${body}}`));
      publish?.(body);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    };
    if (!insertPg) return answer();
    insertPg([id, channel, AUTHOR.id, content, ts], (err) => {
      if (err) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: err.message, code: 0 }));
      else answer();
    });
  });
});

const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: 1 << 20 });
wss.on('connection', (ws, req) => {
  const c: Conn = { ws, seq: 0, socket: req.socket, identified: false };
  ws.send(HELLO);
  ws.on('message', (data: Buffer) => {
    const op = data[6];
    if (op === 50 /* '2' */ && !c.identified) {
      // {"op":2,...}: Identify
      c.identified = true;
      c.seq = 1;
      ws.send(READY);
      listeners.add(c);
    } else if (op === 49 /* '1' */) ws.send(ACK);
  });
  ws.on('close', () => listeners.delete(c));
  ws.on('error', () => listeners.delete(c));
});

server.listen(Number(arg('port', '0')), '127.0.0.1', 4096, () => {
  const port = (server.address() as { port: number }).port;
  if (cluster.isWorker) process.send!({ listening: port });
  else process.stdout.write(`listening ${port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
