/**
 * Runs Remind: `DISCORD_TOKEN=… npx tsx src/main.ts`. Against Accord add `DISCORD_API=http://127.0.0.1:8080/api`.
 * `PREMIUM_SKU_ID` names the SKU `/premium` asks for. The commands are registered at each start.
 */
import { Events } from 'discord.js';
import { createBot } from './bot.js';
import { COMMANDS } from './commands.js';

const token = process.env.DISCORD_TOKEN;
if (!token) {
  console.error('remind-bot: set DISCORD_TOKEN to the bot token');
  process.exit(1);
}
const bot = createBot({ token, api: process.env.DISCORD_API, premiumSkuId: process.env.PREMIUM_SKU_ID });
bot.client.once(Events.ClientReady, async (client) => {
  await client.application.commands.set(COMMANDS);
  console.log(`remind-bot: ready as ${client.user.tag}, ${COMMANDS.length} commands registered`);
});
await bot.start();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void bot.stop().then(() => process.exit(0)));
