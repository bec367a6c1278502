import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { ApiError, Errors, fieldError } from '../../../core/errors.js';
import { P } from '@accord/protocol';
import type { UploadedFile } from '../../../core/uploads.js';
import { parseBody, snowflake } from '../../../core/validation.js';
import type { AttachmentRecord, MessageRecord } from '../../../store/records.js';
import { publicUser } from '../../../wire/user.js';
import { fileIndex, planAttachments } from '../../messages/attachments.js';
import { canUseCommand, getCommand } from '../commands/index.js';
import type { CommandRecord } from '../commands/types.js';
import { Checker, isObj, type Obj } from '../components/check.js';
import { modalSubmitShape, submittedValues, ComponentType as C } from '../components/index.js';
import { loadMessage } from '../../messages/channel.js';
import { messageWire } from '../../messages/view.js';
import { deliver, notifySuccess, userEvent } from './deliver.js';
import { createResponseMessage } from './messages.js';
import { readOptions, type OptionContext } from './options.js';
import { buildPayload, partialInvokerMember } from './payload.js';
import { launchForInteraction } from './respond.js';
import { checkLaunch } from '../../activities/instances.js';
import { inActivityPreview } from '../../activities/preview.js';
import { Resolved } from './resolve.js';
import {
  insertInteraction,
  loadInteraction,
  mintInteractionToken,
  saveInteraction,
  tokenExpired,
  unknownInteraction,
  type InteractionData,
  type InteractionRecord,
} from './store.js';
import { Context, loadApplication, ownersFor, placeOf, type Place } from './where.js';

/**
 * `POST /interactions`: a person invokes a command (2), asks for autocomplete (4), clicks or picks in a component (3)
 * or submits a modal (5), as the official client does. The interaction is checked, built and delivered to the app.
 */

const Nonce = z.union([z.string().max(25), z.number().int().transform(String)]);
const InvokeBody = z.object({
  type: z.literal([2, 3, 4, 5]),
  application_id: snowflake,
  guild_id: snowflake.nullish(),
  channel_id: snowflake,
  message_id: snowflake.nullish(),
  message_flags: z.number().int().nullish(),
  session_id: z.string().min(1).max(200),
  data: z.record(z.string(), z.unknown()),
  nonce: Nonce.nullish(),
});
type InvokeInput = z.infer<typeof InvokeBody>;

const AttachmentsField = z
  .array(z.object({ id: snowflake, filename: z.string().min(1).max(1024), uploaded_filename: z.string().max(1024).nullish() }))
  .max(10)
  .nullish();
const CommandDataBody = z.object({
  id: snowflake,
  name: z
    .string()
    .min(1)
    .max(32 * 3 + 2),
  type: z.number().int().nullish(),
  version: snowflake.nullish(),
  options: z.unknown().optional(),
  target_id: snowflake.nullish(),
  attachments: AttachmentsField,
});
const ComponentDataBody = z.object({
  component_type: z.number().int().nullish(),
  type: z.number().int().nullish(),
  custom_id: z.string().min(1).max(100),
  values: z.array(z.string().max(100)).max(25).nullish(),
});
const ModalDataBody = z.object({
  id: snowflake,
  custom_id: z.string().min(1).max(100),
  components: z.array(z.unknown()).max(40),
  attachments: AttachmentsField,
});

const unknownCommand = () => new ApiError(404, 10063, 'Unknown application command');
const HANDLER_DISCORD_LAUNCH_ACTIVITY = 2;

/** What a type-specific builder contributes to the interaction. */
interface Built {
  data: Record<string, unknown>;
  owners: Record<string, string>;
  message?: Record<string, unknown>;
  extra: Partial<InteractionData>;
  /** interaction_metadata fields beyond id/type/user/owners. */
  metadata: Record<string, unknown>;
  /** The deprecated `interaction.name`. */
  name: string;
  /** Entry point with handler 2: the platform launches the Activity itself. */
  platformLaunch?: boolean;
  /** Work to do once the interaction is stored (consume the modal). */
  after?: () => Promise<void>;
}

export async function invokeInteraction(ctx: Ctx, actor: Actor, body: unknown, files: UploadedFile[]): Promise<void> {
  if (actor.kind === 'bot') throw Errors.botsCannotUse();
  if (actor.kind !== 'user') throw Errors.unauthorized();
  const b = parseBody(InvokeBody, body);
  const app = await loadApplication(ctx, b.application_id);
  const place = await placeOf(ctx, app, actor.user, b.channel_id, b.guild_id);
  const id = ctx.ids.next();

  let built: Built;
  if (b.type === 2 || b.type === 4) built = await commandInteraction(ctx, place, b, files);
  else if (b.type === 3) built = await componentInteraction(ctx, place, b);
  else built = await modalSubmit(ctx, place, b, files);

  const ownerKeys = Object.keys(built.owners);
  const userInstallOnly = ownerKeys.length === 1 && ownerKeys[0] === '1';
  const forceEphemeral = place.context === Context.GUILD && userInstallOnly && !place.guildInstalled && !(place.userPerms & P.USE_EXTERNAL_APPS);
  const user = publicUser(place.user);
  const member = partialInvokerMember(place);
  const data: InteractionData = {
    nonce: b.nonce ?? null,
    session_id: b.session_id,
    context: place.context,
    owners: built.owners,
    user_install_only: userInstallOnly,
    force_ephemeral: forceEphemeral,
    metadata: { id, type: b.type, user, authorizing_integration_owners: built.owners, ...built.metadata },
    legacy: { id, type: b.type, name: built.name, user, ...(member ? { member } : {}) },
    ...built.extra,
  };
  const rec: InteractionRecord = {
    id,
    application_id: app.id,
    type: b.type,
    user_id: place.user.id,
    guild_id: place.guild?.id ?? null,
    channel_id: place.channel.id,
    state: built.platformLaunch ? 'acknowledged' : 'pending',
    original_message_id: null,
    followups: 0,
    data,
    created_at: ctx.clock.now(),
  };
  // A platform launch is refused before anything is stored (no EMBEDDED, no USE_EMBEDDED_ACTIVITIES, …).
  if (built.platformLaunch) await checkLaunch(ctx, app, place.user.id, place.channel);
  const token = mintInteractionToken(id);
  await insertInteraction(ctx, rec, token);
  if (built.after) await built.after();

  if (built.platformLaunch) return launchForApp(ctx, place, rec);
  const payload = await buildPayload(ctx, place, { id, type: b.type, token, data: built.data, message: built.message, owners: built.owners });
  await deliver(ctx, app, rec, payload);
}

// ---------------------------------------------------------------------------------------------------------------
// Commands and autocomplete

/** Where a command may be used: contexts (null = all, minus DMs with dm_permission false) and installations. */
function commandOwners(cmd: CommandRecord, place: Place): Record<string, string> | null {
  if (cmd.guild_id) {
    if (place.context !== Context.GUILD || place.guild?.id !== cmd.guild_id) return null;
    return { '0': cmd.guild_id };
  }
  const contexts =
    cmd.contexts ?? (cmd.dm_permission === false ? [Context.GUILD, Context.PRIVATE_CHANNEL] : [Context.GUILD, Context.BOT_DM, Context.PRIVATE_CHANNEL]);
  if (!contexts.includes(place.context)) return null;
  const owners = ownersFor(place, cmd.integration_types ?? [0]);
  return Object.keys(owners).length ? owners : null;
}

/**
 * A developer launching their in-development Activity where it is not installed: the Entry Point acts as their own
 * installation (owners "1"). Null for anyone else.
 */
async function previewOwners(ctx: Ctx, cmd: CommandRecord, place: Place): Promise<Record<string, string> | null> {
  if (cmd.type !== 4 || cmd.guild_id || !place.guild || (cmd.contexts && !cmd.contexts.includes(Context.GUILD))) return null;
  return (await inActivityPreview(ctx, place.app, place.user.id, place.guild.id)) ? { '1': place.user.id } : null;
}

async function commandInteraction(ctx: Ctx, place: Place, b: InvokeInput, files: UploadedFile[]): Promise<Built> {
  const d = parseBody(z.object({ data: CommandDataBody }), { data: b.data }).data;
  const cmd = await getCommand(ctx, place.app.id, d.id);
  if (!cmd || cmd.application_id !== place.app.id) throw unknownCommand();
  const owners = commandOwners(cmd, place) ?? (await previewOwners(ctx, cmd, place));
  if (!owners) throw unknownCommand();
  if (d.name !== cmd.name) throw fieldError(['data', 'name'], 'APPLICATION_COMMAND_NAME_MISMATCH', 'The command name does not match the command.');
  if (d.type != null && d.type !== cmd.type)
    throw fieldError(['data', 'type'], 'APPLICATION_COMMAND_TYPE_MISMATCH', 'The command type does not match the command.');
  if (b.type === 4 && cmd.type !== 1) throw fieldError('type', 'INTERACTION_TYPE_INVALID', 'Autocomplete is only for chat input commands.');

  if (place.guild) {
    if (!(place.userPerms & P.USE_APPLICATION_COMMANDS)) throw Errors.missingPermissions();
    // Overwrites and default_member_permissions govern guild installs; a user's own installation is theirs to use.
    if (owners['0'] && !(await canUseCommand(ctx, { command: cmd, guildId: place.guild.id, userId: place.user.id, channelId: place.channel.id }))) {
      if (!owners['1']) throw Errors.missingPermissions();
      delete owners['0'];
    }
  }

  const resolved = new Resolved(ctx, place);
  const uploads = planUploads(ctx, place, files, d.attachments);
  const attachments = uploads.byId;
  const data: Record<string, unknown> = { id: cmd.id, name: cmd.name, type: cmd.type };
  if (cmd.guild_id) data.guild_id = cmd.guild_id;
  const metadata: Record<string, unknown> = {};
  const c = new Checker();
  const oc: OptionContext = { c, resolved, autocomplete: b.type === 4, attachments, focused: 0, names: [cmd.name] };

  if (cmd.type === 1) {
    const options = await readOptions(cmd.options ?? [], d.options, ['data', 'options'], oc);
    if (b.type === 4 && oc.focused !== 1) c.add(['data', 'options'], 'APPLICATION_COMMAND_AUTOCOMPLETE_FOCUSED', 'Exactly one option must be focused.');
    if (options.length) data.options = options;
  } else if (cmd.type === 2 || cmd.type === 3) {
    if (!d.target_id) c.required(['data', 'target_id']);
    else if (cmd.type === 2 && !(await resolved.user(d.target_id))) c.add(['data', 'target_id'], 'APPLICATION_COMMAND_TARGET_INVALID', 'Unknown user.');
    else if (cmd.type === 3 && !(await resolved.message(d.target_id))) c.add(['data', 'target_id'], 'APPLICATION_COMMAND_TARGET_INVALID', 'Unknown message.');
    if (d.target_id) {
      data.target_id = d.target_id;
      if (cmd.type === 2) metadata.target_user = resolved.users[d.target_id];
      else metadata.target_message_id = d.target_id;
    }
  }
  c.throwIfAny();
  const r = resolved.toJSON();
  if (r) data.resolved = r;
  const fullName = oc.names.join(' ');
  return {
    data,
    owners,
    metadata,
    name: fullName,
    extra: { command: { id: cmd.id, name: cmd.name, full_name: fullName, type: cmd.type, ...(d.target_id ? { target_id: d.target_id } : {}) } },
    platformLaunch: b.type === 2 && cmd.type === 4 && cmd.handler === HANDLER_DISCORD_LAUNCH_ACTIVITY,
    after: uploads.save,
  };
}

/**
 * Files uploaded with an interaction (ATTACHMENT options, File Upload fields), keyed by their request id. Nothing is
 * stored until `save` runs, after the interaction was found valid.
 */
function planUploads(
  ctx: Ctx,
  place: Place,
  files: UploadedFile[],
  requests: z.infer<typeof AttachmentsField>,
): { byId: Map<string, AttachmentRecord>; save: () => Promise<void> } {
  const byId = new Map<string, AttachmentRecord>();
  if (!files.length) return { byId, save: async () => {} };
  const reqs = (requests ?? []).map((a) => ({ id: a.id, filename: a.filename }));
  const plan = planAttachments(ctx, place.channel.id, files, reqs.length ? reqs : undefined, null);
  // The same keys planAttachments uses: the files[n] index (position on a clash), added in index order.
  const keys: string[] = [];
  files.forEach((f, i) => {
    const k = fileIndex(f, i);
    keys.push(keys.includes(k) ? String(i) : k);
  });
  keys
    .sort((a, b) => Number(a) - Number(b))
    .forEach((k, n) => {
      const rec = plan.attachments[n];
      if (rec) byId.set(k, rec);
    });
  return {
    byId,
    save: async () => {
      if (plan.rows.length) await ctx.repos.files.insert(plan.rows);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Components

/** Every interactive component of a stored message, wherever it sits (rows, sections, containers). */
function findComponent(components: unknown, customId: string): Obj | null {
  const stack: unknown[] = Array.isArray(components) ? [...components] : [];
  while (stack.length) {
    const v = stack.shift();
    if (!isObj(v)) continue;
    if (v.custom_id === customId && v.type !== C.TEXT_INPUT) return v;
    if (Array.isArray(v.components)) stack.push(...v.components);
    if (v.component) stack.push(v.component);
    if (v.accessory) stack.push(v.accessory);
  }
  return null;
}

async function componentInteraction(ctx: Ctx, place: Place, b: InvokeInput): Promise<Built> {
  if (!b.message_id) throw fieldError('message_id', 'BASE_TYPE_REQUIRED', 'This field is required');
  const d = parseBody(z.object({ data: ComponentDataBody }), { data: b.data }).data;
  const message = await loadMessage(ctx, place.channel.id, b.message_id);
  if (message.flags & 64 && message.extra.interaction_metadata?.user?.id !== place.user.id) throw Errors.unknownMessage();
  const app = place.app;
  const fromApp =
    message.application_id === app.id || message.webhook_id === app.id || (!!app.bot_user_id && message.author_id === app.bot_user_id && !message.webhook_id);
  if (!fromApp) throw fieldError('message_id', 'INTERACTION_MESSAGE_NOT_FROM_APPLICATION', 'This message was not sent by this application.');

  const comp = findComponent(message.components, d.custom_id);
  const type = d.component_type ?? d.type;
  if (!comp) throw fieldError(['data', 'custom_id'], 'INTERACTION_COMPONENT_NOT_FOUND', 'No component with this custom_id on the message.');
  if (type != null && type !== comp.type)
    throw fieldError(['data', 'component_type'], 'INTERACTION_COMPONENT_TYPE_MISMATCH', 'The component type does not match the component.');
  if (comp.disabled === true) throw fieldError(['data', 'custom_id'], 'INTERACTION_COMPONENT_DISABLED', 'This component is disabled.');

  const resolved = new Resolved(ctx, place);
  const data: Record<string, unknown> = { custom_id: d.custom_id, component_type: comp.type };
  const isSelect = [C.STRING_SELECT, C.USER_SELECT, C.ROLE_SELECT, C.MENTIONABLE_SELECT, C.CHANNEL_SELECT].includes(comp.type as any);
  if (isSelect) {
    const values = d.values ?? [];
    const c = new Checker();
    const min = typeof comp.min_values === 'number' ? comp.min_values : 1;
    const max = typeof comp.max_values === 'number' ? comp.max_values : 1;
    if (values.length < min || values.length > max) c.add(['data', 'values'], 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    if (new Set(values).size !== values.length) c.add(['data', 'values'], 'BASE_TYPE_INVALID', 'Values must be unique.');
    for (const [i, v] of values.entries()) {
      const p = ['data', 'values', i];
      if (comp.type === C.STRING_SELECT) {
        const allowed = (Array.isArray(comp.options) ? comp.options : []).map((o: any) => o?.value);
        if (!allowed.includes(v)) c.choices(p, allowed);
        continue;
      }
      const ok =
        comp.type === C.USER_SELECT
          ? await resolved.user(v)
          : comp.type === C.ROLE_SELECT
            ? await resolved.role(v)
            : comp.type === C.CHANNEL_SELECT
              ? await resolved.channel(v, Array.isArray(comp.channel_types) ? (comp.channel_types as number[]) : undefined)
              : await resolved.mentionable(v);
      if (!ok) c.add(p, 'INTERACTION_COMPONENT_VALUE_INVALID', 'Unknown or unusable entity.');
    }
    c.throwIfAny();
    data.values = values;
    const r = resolved.toJSON();
    if (r) data.resolved = r;
  }

  const stored = message.extra.interaction_metadata?.authorizing_integration_owners as Record<string, string> | undefined;
  const owners = stored && Object.keys(stored).length ? { ...stored } : ownersFor(place, [0, 1]);
  return {
    data,
    owners,
    name: d.custom_id,
    message: await messageWire(ctx, message, null),
    metadata: { interacted_message_id: message.id },
    extra: { message_id: message.id, custom_id: d.custom_id },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Modal submits

async function modalSubmit(ctx: Ctx, place: Place, b: InvokeInput, files: UploadedFile[]): Promise<Built> {
  const d = parseBody(z.object({ data: ModalDataBody }), { data: b.data }).data;
  const opener = await loadInteraction(ctx, d.id);
  if (!opener || opener.application_id !== place.app.id || opener.user_id !== place.user.id || opener.channel_id !== place.channel.id)
    throw unknownInteraction();
  if (tokenExpired(ctx, opener) || !opener.data.modal) throw unknownInteraction();
  const modal = opener.data.modal;
  if (modal.custom_id !== d.custom_id)
    throw fieldError(['data', 'custom_id'], 'INTERACTION_MODAL_CUSTOM_ID_MISMATCH', 'The custom_id does not match the open modal.');

  const components = modalSubmitShape(modal as any, submittedValues(d.components), ['data', 'components']);
  const resolved = new Resolved(ctx, place);
  const uploads = planUploads(ctx, place, files, d.attachments);
  const attachments = uploads.byId;
  const c = new Checker();
  await resolveModalValues(components, resolved, attachments, c, ['data', 'components']);
  c.throwIfAny();

  const data: Record<string, unknown> = { custom_id: d.custom_id, components };
  const r = resolved.toJSON();
  if (r) data.resolved = r;
  let message: MessageRecord | null = null;
  if (opener.data.message_id) message = await loadMessage(ctx, place.channel.id, opener.data.message_id).catch(() => null);
  return {
    data,
    owners: { ...opener.data.owners },
    name: d.custom_id,
    ...(message ? { message: await messageWire(ctx, message, null) } : {}),
    metadata: { triggering_interaction_metadata: opener.data.metadata },
    extra: { ...(opener.data.message_id ? { message_id: opener.data.message_id } : {}), custom_id: d.custom_id, triggering: opener.data.metadata },
    after: async () => {
      await uploads.save();
      await saveInteraction(ctx, opener, { ...opener.data, modal: undefined });
    },
  };
}

/** Entity selects and File Uploads of a modal submit: their values become `data.resolved` entries. */
async function resolveModalValues(
  list: Obj[],
  resolved: Resolved,
  attachments: Map<string, AttachmentRecord>,
  c: Checker,
  path: (string | number)[],
): Promise<void> {
  const visit = async (comp: Obj, p: (string | number)[]): Promise<void> => {
    if (Array.isArray(comp.components)) {
      for (const [i, child] of (comp.components as Obj[]).entries()) await visit(child, [...p, 'components', i]);
    }
    if (isObj(comp.component)) await visit(comp.component, [...p, 'component']);
    if (!Array.isArray(comp.values)) return;
    const values = comp.values as string[];
    for (const [j, v] of values.entries()) {
      const vp = [...p, 'values', j];
      switch (comp.type) {
        case C.USER_SELECT:
          if (!(await resolved.user(v))) c.add(vp, 'INTERACTION_COMPONENT_VALUE_INVALID', 'Unknown user.');
          break;
        case C.ROLE_SELECT:
          if (!(await resolved.role(v))) c.add(vp, 'INTERACTION_COMPONENT_VALUE_INVALID', 'Unknown role.');
          break;
        case C.MENTIONABLE_SELECT:
          if (!(await resolved.mentionable(v))) c.add(vp, 'INTERACTION_COMPONENT_VALUE_INVALID', 'Unknown user or role.');
          break;
        case C.CHANNEL_SELECT:
          if (!(await resolved.channel(v))) c.add(vp, 'INTERACTION_COMPONENT_VALUE_INVALID', 'Unknown channel.');
          break;
        case C.FILE_UPLOAD: {
          const a = attachments.get(v) ?? [...attachments.values()].find((x) => x.id === v);
          if (!a) c.add(vp, 'ATTACHMENT_NOT_FOUND', 'Unknown attachment or file reference.');
          else {
            resolved.attachment(a);
            values[j] = a.id;
          }
          break;
        }
        default:
          break;
      }
    }
  };
  for (const [i, comp] of list.entries()) await visit(comp, [...path, i]);
}

// ---------------------------------------------------------------------------------------------------------------
// Entry Point commands handled by the platform

/**
 * DISCORD_LAUNCH_ACTIVITY (handler 2): the app is not contacted. The user's client is told the interaction succeeded
 * and the channel gets a message from the app saying the Activity was launched.
 */
async function launchForApp(ctx: Ctx, place: Place, rec: InteractionRecord): Promise<void> {
  userEvent(ctx, rec, 'INTERACTION_CREATE', { id: rec.id, ...(rec.data.nonce != null ? { nonce: rec.data.nonce } : {}) });
  const instance = (await launchForInteraction(ctx, place.app, rec)).instance_id;
  const name = place.user.global_name ?? place.user.username;
  const m = await createResponseMessage(
    ctx,
    place.app,
    rec,
    {
      content: `${name} launched **${place.app.name}**`,
      allowed_mentions: { parse: [] },
    },
    [],
    { ephemeral: false },
  );
  await saveInteraction(ctx, rec, { ...rec.data, activity_instance_id: instance, response_type: 12 }, m.id);
  notifySuccess(ctx, rec);
}
