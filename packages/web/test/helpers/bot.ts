import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import type { TestServer } from '../../../server/test/helpers/server.ts';
import { waitEvent } from '../../../server/test/helpers/wait.ts';

/**
 * An unmodified discord.js client logged in as the seeded world's bot, pointed at the test server the way the
 * README tells developers to. `handle` answers its interactions; errors are collected for the test to check.
 */
export async function startBot(t: TestServer, handle: (i: Interaction) => Promise<void>, intents: GatewayIntentBits[] = [GatewayIntentBits.Guilds]) {
  const errors: unknown[] = [];
  const client = new Client({ intents, rest: { api: `${t.server.url}/api` } });
  client.on(Events.InteractionCreate, (i) => {
    handle(i).catch((e) => errors.push(e));
  });
  await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  return { client, errors };
}
