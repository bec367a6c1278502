// A bot that hard-codes the platform: discord.js with no REST or Gateway setting at all. argv: bot token, channel id.
// The parent maps the platform's names to this machine (NODE_OPTIONS --import intercept-hosts) and trusts the local CA.
import { Client, GatewayIntentBits } from 'discord.js';

const [token, channelId] = process.argv.slice(2);
const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent] });

client.on('error', (err) => say({ step: 'error', message: String(err?.message) }));
client.on('messageCreate', (m) => say({ step: 'messageCreate', content: m.content, author: m.author.id }));
client.once('clientReady', async () => {
  say({ step: 'ready', user: client.user.id, gateway: client.ws.gateway ?? null });
  try {
    const sent = await (await client.channels.fetch(channelId)).send('hard-coded, intercepted');
    say({ step: 'sent', id: sent.id });
  } catch (err) {
    say({ step: 'error', message: String(err?.message) });
  }
});
client.login(token).catch((err) => say({ step: 'error', message: String(err?.message) }));
