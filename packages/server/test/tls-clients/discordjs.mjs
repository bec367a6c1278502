// discord.js over https and wss: the REST base is the one setting; the Gateway URL comes from GET /gateway/bot.
// Trust comes from NODE_EXTRA_CA_CERTS, set by the parent. argv: API base (https://host:port/api), bot token,
// channel id. Prints one JSON line per step ({ step, ... }) and runs until killed.
import { Client, GatewayIntentBits } from 'discord.js';

const [api, token, channelId] = process.argv.slice(2);
const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent], rest: { api } });

client.on('error', (err) => say({ step: 'error', message: String(err?.message) }));
client.on('messageCreate', (m) => say({ step: 'messageCreate', id: m.id, content: m.content, author: m.author.id }));
client.once('clientReady', async () => {
  say({ step: 'ready', user: client.user.id });
  try {
    const channel = await client.channels.fetch(channelId);
    const sent = await channel.send('discord.js over wss');
    say({ step: 'sent', id: sent.id, content: sent.content });
  } catch (err) {
    say({ step: 'error', message: String(err?.message) });
  }
});
client.login(token).catch((err) => say({ step: 'error', message: String(err?.message) }));
