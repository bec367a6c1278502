import { ApplicationCommandOptionType } from 'discord.js';

/** The bot's slash commands, as registered with the platform (`PUT /applications/{id}/commands`). */
export const REMIND = {
  name: 'remind',
  description: 'Remind me of something later, in this channel',
  options: [{ type: ApplicationCommandOptionType.String, name: 'when', description: 'In how long: 10m, 30m, 2h, 1h30m (up to 7 days)', required: true }],
};

export const PREMIUM = {
  name: 'premium',
  description: 'Your Remind Premium status',
};

export const COMMANDS = [REMIND, PREMIUM];
