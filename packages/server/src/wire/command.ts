import type { CommandOption, CommandRecord } from '../store/repos/commands.js';
import { dropUndefined } from './drop-undefined.js';
import type { AccordCommand, AccordCommandOption } from './extensions.js';

export interface CommandView {
  /** Full `*_localizations` maps (single-command responses, and lists with `?with_localizations=true`). */
  localizations: boolean;
}

/** The application command object. Global commands carry dm_permission, contexts and integration_types. */
export function commandWire(r: CommandRecord, view: CommandView = { localizations: true }): AccordCommand {
  const global = !r.guild_id;
  return dropUndefined<AccordCommand>({
    id: r.id,
    application_id: r.application_id,
    version: r.version,
    default_member_permissions: r.default_member_permissions,
    type: r.type,
    name: r.name,
    name_localizations: view.localizations ? (r.name_localizations ?? null) : undefined,
    description: r.description,
    description_localizations: view.localizations ? (r.description_localizations ?? null) : undefined,
    guild_id: r.guild_id ?? undefined,
    dm_permission: global ? (r.dm_permission ?? true) : undefined,
    contexts: global ? (r.contexts ?? null) : undefined,
    integration_types: global ? (r.integration_types ?? [0]) : undefined,
    nsfw: r.nsfw,
    options: r.options.length ? r.options.map((o) => optionWire(o, view)) : undefined,
    handler: r.handler,
  });
}

function optionWire(o: CommandOption, view: CommandView): AccordCommandOption {
  return dropUndefined<AccordCommandOption>({
    type: o.type,
    name: o.name,
    name_localizations: view.localizations && o.name_localizations ? o.name_localizations : undefined,
    description: o.description,
    description_localizations: view.localizations && o.description_localizations ? o.description_localizations : undefined,
    required: o.required ? true : undefined,
    choices: o.choices?.map((c) => (view.localizations || !c.name_localizations ? c : { name: c.name, value: c.value })),
    options: o.options?.map((x) => optionWire(x, view)),
    channel_types: o.channel_types,
    min_value: o.min_value,
    max_value: o.max_value,
    min_length: o.min_length,
    max_length: o.max_length,
    autocomplete: o.autocomplete,
    file_types: o.file_types,
  });
}
