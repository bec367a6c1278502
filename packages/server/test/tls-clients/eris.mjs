// Eris 0.18 as a bot that only speaks https to port 443: the one setting is its REST domain; the Gateway URL comes
// from GET /gateway/bot. Trust comes from NODE_EXTRA_CA_CERTS, set by the parent. argv: bot token, channel id.
// Prints one JSON line per step ({ step, ... }) and runs until killed.
import Eris from 'eris';

const [token, channelId] = process.argv.slice(2);
const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const bot = new Eris(`Bot ${token}`, { intents: ['guilds', 'guildMessages', 'messageContent'], rest: { domain: '127.0.0.1' } });

bot.on('error', (err) => say({ step: 'error', message: String(err && err.message) }));
bot.on('messageCreate', (m) => say({ step: 'messageCreate', id: m.id, content: m.content, author: m.author.id }));
bot.once('ready', async () => {
  say({ step: 'ready', user: bot.user.id, gateway: bot.gatewayURL });
  try {
    const sent = await bot.createMessage(channelId, 'eris over https');
    say({ step: 'sent', id: sent.id, content: sent.content });
    // A file makes Eris send multipart/form-data with a JSON-typed payload_json part.
    const up = await bot.createMessage(channelId, { content: 'eris upload' }, { file: Buffer.from('hello over tls'), name: 'hello.txt' });
    say({ step: 'uploaded', id: up.id, content: up.content, attachments: up.attachments.map((a) => ({ filename: a.filename, url: a.url, size: a.size })) });
  } catch (err) {
    say({ step: 'error', message: String(err && err.message) });
  }
});
bot.connect().catch((err) => say({ step: 'error', message: String(err && err.message) }));
