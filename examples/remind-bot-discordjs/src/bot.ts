import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  ModalBuilder,
  TextInputBuilder,
  TextInputStyle,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type ModalSubmitInteraction,
} from 'discord.js';
import { parseDelay } from './duration.js';
import { timerScheduler, type Scheduler } from './scheduler.js';

export interface BotOptions extends Partial<Scheduler> {
  token: string;
  /** The REST base without the version (`http://127.0.0.1:8080/api` for Accord); the real platform's when absent. */
  api?: string;
  /** The SKU `/premium` asks for; without one, `/premium` says premium is not set up. */
  premiumSkuId?: string;
}

export interface RemindBot {
  client: Client;
  /** Logs in and resolves when the bot is ready. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

// Custom ids carry what the next step needs, so the bot keeps no state between the command and the modal.
const NOTE_BUTTON = /^remind:([^:]+):(\d+)$/;
const NOTE_MODAL = /^remind:([^:]+)$/;

/**
 * Remind: `/remind when:30m` offers an "Add a note" button, the button opens a modal, the modal's note is confirmed
 * to its author alone, and when it is due the bot posts "Reminder for @user: <note>" in the channel. `/premium`
 * answers only people whose interaction carries an entitlement to the premium SKU, and offers the others a premium
 * button.
 */
export function createBot(options: BotOptions): RemindBot {
  const now = options.now ?? timerScheduler.now;
  const schedule = options.schedule ?? timerScheduler.schedule;
  const client = new Client({ intents: [GatewayIntentBits.Guilds], ...(options.api ? { rest: { api: options.api } } : {}) });

  async function remind(i: ChatInputCommandInteraction): Promise<void> {
    const when = i.options.getString('when', true);
    if (parseDelay(when) === null) {
      await i.reply({ content: `"${when}" is not a delay I understand: try 10m, 2h or 1h30m (up to 7 days).`, flags: MessageFlags.Ephemeral });
      return;
    }
    const button = new ButtonBuilder().setCustomId(`remind:${when}:${i.user.id}`).setLabel('Add a note').setStyle(ButtonStyle.Primary);
    await i.reply({ content: `Reminder in ${when}. Add a note?`, components: [new ActionRowBuilder<ButtonBuilder>().addComponents(button)] });
  }

  async function askForNote(i: ButtonInteraction, when: string, ownerId: string): Promise<void> {
    if (i.user.id !== ownerId) {
      await i.reply({ content: 'This reminder is not yours: run /remind for your own.', flags: MessageFlags.Ephemeral });
      return;
    }
    const input = new TextInputBuilder().setCustomId('note').setLabel('What should I remind you of?').setStyle(TextInputStyle.Short).setMaxLength(200);
    await i.showModal(
      new ModalBuilder().setCustomId(`remind:${when}`).setTitle('Your reminder').addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)),
    );
  }

  async function save(i: ModalSubmitInteraction, when: string): Promise<void> {
    const delay = parseDelay(when);
    if (delay === null || !i.channelId) return;
    const note = i.fields.getTextInputValue('note');
    const { channelId, user } = i;
    // A channel message, not an interaction follow-up: an interaction's token lasts 15 minutes.
    schedule(now() + delay, async () => {
      const channel = await client.channels.fetch(channelId);
      if (channel?.isSendable()) await channel.send({ content: `Reminder for <@${user.id}>: ${note}`, allowedMentions: { users: [user.id] } });
    });
    await i.reply({ content: `Saved: I will remind you in ${when}: ${note}`, flags: MessageFlags.Ephemeral });
  }

  async function premium(i: ChatInputCommandInteraction): Promise<void> {
    const sku = options.premiumSkuId;
    if (!sku) {
      await i.reply({ content: 'Premium is not set up for this bot.', flags: MessageFlags.Ephemeral });
      return;
    }
    // The platform puts the person's (and the guild's) live entitlements on every interaction.
    if (i.entitlements.some((e) => e.skuId === sku && e.isActive())) {
      await i.reply({ content: 'You have Remind Premium. Thank you!', flags: MessageFlags.Ephemeral });
      return;
    }
    const upgrade = new ButtonBuilder().setStyle(ButtonStyle.Premium).setSKUId(sku);
    await i.reply({
      content: 'This needs Remind Premium.',
      components: [new ActionRowBuilder<ButtonBuilder>().addComponents(upgrade)],
      flags: MessageFlags.Ephemeral,
    });
  }

  async function onInteraction(i: Interaction): Promise<void> {
    if (i.isChatInputCommand() && i.commandName === 'remind') return remind(i);
    if (i.isChatInputCommand() && i.commandName === 'premium') return premium(i);
    const button = i.isButton() ? NOTE_BUTTON.exec(i.customId) : null;
    if (i.isButton() && button) return askForNote(i, button[1], button[2]);
    const modal = i.isModalSubmit() ? NOTE_MODAL.exec(i.customId) : null;
    if (i.isModalSubmit() && modal) return save(i, modal[1]);
  }

  client.on(Events.InteractionCreate, (i) => {
    onInteraction(i).catch((err) => console.error('remind-bot: an interaction failed:', err));
  });

  return {
    client,
    async start() {
      await Promise.all([new Promise((resolve) => client.once(Events.ClientReady, resolve)), client.login(options.token)]);
    },
    stop: () => client.destroy(),
  };
}
