import { parseArgs } from 'node:util';
import { DesktopClient } from './client.js';
import { AutoApprovePrompter, TerminalPrompter } from './consent.js';

const HELP = `accord-desktop: the Accord local client (RPC over IPC and WebSocket for games and native apps)

  --server URL        the Accord server (default http://127.0.0.1:8080, or ACCORD_SERVER)
  --token TOKEN       a user token (or ACCORD_TOKEN)
  --login NAME        log in with a username or email …
  --password PASS     … and its password (or ACCORD_PASSWORD)
  --dev               approve every AUTHORIZE without asking (development only)
  --no-ipc            do not serve IPC sockets
  --no-websocket      do not serve the WebSocket on 127.0.0.1:6463–6472
  --help`;

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      login: { type: 'string' },
      password: { type: 'string' },
      dev: { type: 'boolean' },
      'no-ipc': { type: 'boolean' },
      'no-websocket': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return void console.log(HELP);
  const client = new DesktopClient({
    server: values.server ?? process.env.ACCORD_SERVER ?? 'http://127.0.0.1:8080',
    token: values.token ?? process.env.ACCORD_TOKEN,
    login: values.login,
    password: values.password ?? process.env.ACCORD_PASSWORD,
    prompter: values.dev ? new AutoApprovePrompter() : new TerminalPrompter(),
    // Consent shows in an open Accord web client when there is one; --dev approves without asking anyone.
    webConsent: !values.dev,
    ipc: !values['no-ipc'],
    websocket: !values['no-websocket'],
  });
  await client.start();
  const who = client.user.global_name ? `${client.user.global_name} (@${client.user.username})` : `@${client.user.username}`;
  console.log(`accord-desktop: logged in as ${who}`);
  if (client.ipc?.path) console.log(`  IPC        ${client.ipc.path}`);
  if (client.ws?.port) console.log(`  WebSocket  ws://127.0.0.1:${client.ws.port}/?v=1&client_id=<application id>`);
  if (values.dev) console.log('  --dev: AUTHORIZE requests are approved without asking');
  else if (client.link) console.log(`  Consent    in an open Accord web client (${client.link.origin}) when there is one, else here`);
  const stop = async () => {
    await client.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
