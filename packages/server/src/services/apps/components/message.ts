import { Checker, compact, type Obj, type Path } from './check.js';
import { Walk, head, readType, emoji, select, componentObj } from './parts.js';
import { C, ButtonStyle, IS_COMPONENTS_V2, LIMITS, SELECT_TYPES } from './types.js';

/** What the message carries besides its components; the validator needs it for the V2 and media rules. */
export interface MessageComponentOpts {
  flags: number;
  /** The message's attachments after the change (uploads and kept ones); `attachment://` must name one. */
  attachments?: AttachmentRef[];
  /** Whether a premium button's `sku_id` names an SKU of the app; absent = no SKU exists. */
  skuExists?: (id: string) => boolean;
  hasContent?: boolean;
  hasEmbeds?: boolean;
  hasPoll?: boolean;
  hasStickers?: boolean;
}

/** An attachment as the media rules see it; with `url` the reference is resolved into the stored item. */
export interface AttachmentRef {
  filename: string;
  id?: string;
  url?: string;
  proxy_url?: string;
  content_type?: string;
  width?: number | null;
  height?: number | null;
  size?: number;
}

/** An interactive component of the message: what a click or a pick refers to. */
export interface ComponentLeaf {
  type: number;
  id: number;
  custom_id: string;
  /** The normalized component (options, min/max values, …). */
  component: Obj;
}

export interface ValidatedComponents {
  components: Obj[];
  leaves: ComponentLeaf[];
}

const V2_TOP: readonly number[] = [C.ACTION_ROW, C.SECTION, C.TEXT_DISPLAY, C.MEDIA_GALLERY, C.FILE, C.SEPARATOR, C.CONTAINER];
const CONTAINER_CHILDREN: readonly number[] = [C.ACTION_ROW, C.TEXT_DISPLAY, C.SECTION, C.MEDIA_GALLERY, C.SEPARATOR, C.FILE];
const ROW_CHILDREN: readonly number[] = [C.BUTTON, ...SELECT_TYPES];
const ACCESSORY: readonly number[] = [C.BUTTON, C.THUMBNAIL];
const ATTACHMENT_SCHEME = 'attachment://';

interface MessageWalk {
  w: Walk;
  c: Checker;
  opts: MessageComponentOpts;
  leaves: ComponentLeaf[];
}

/**
 * Validates a message's `components` (legacy Action Rows, or Components V2 with the IS_COMPONENTS_V2 flag) and
 * returns them normalized: unknown keys dropped and every component given a numeric `id` unique in the message.
 * Throws 50035 with the path of each offending field. `pathPrefix` is where `components` sits in the request
 * body (`['data', 'components']` for interaction callbacks); the V2 legacy-field errors sit beside it.
 */
export function validateMessageComponents(components: unknown, opts: MessageComponentOpts, pathPrefix: Path = ['components']): ValidatedComponents {
  const c = new Checker();
  const w = new Walk(c);
  const mw: MessageWalk = { w, c, opts, leaves: [] };
  const v2 = (opts.flags & IS_COMPONENTS_V2) !== 0;
  const parent = pathPrefix.slice(0, -1);
  if (v2) {
    const legacy: [boolean | undefined, string][] = [
      [opts.hasContent, 'content'],
      [opts.hasEmbeds, 'embeds'],
      [opts.hasPoll, 'poll'],
      [opts.hasStickers, 'sticker_ids'],
    ];
    for (const [present, field] of legacy) {
      if (present)
        c.add(
          [...parent, field],
          'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
          `The '${field}' field cannot be used when using the IS_COMPONENTS_V2 flag.`,
        );
    }
  }
  const list = components == null ? [] : (c.arr(components, pathPrefix, 0, v2 ? LIMITS.v2Total : LIMITS.legacyRows) ?? []);
  const out: Obj[] = [];
  list.forEach((raw, i) => {
    const n = component(mw, raw, [...pathPrefix, i], v2 ? V2_TOP : [C.ACTION_ROW]);
    if (n) out.push(n);
  });
  if (v2 && w.count > LIMITS.v2Total) c.add(pathPrefix, 'COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED', `The maximum number of components is ${LIMITS.v2Total}.`);
  c.throwIfAny();
  w.assignIds();
  for (const leaf of mw.leaves) leaf.id = leaf.component.id as number;
  return { components: out, leaves: mw.leaves };
}

function component(mw: MessageWalk, v: unknown, path: Path, allowed: readonly number[]): Obj | undefined {
  const raw = componentObj(mw.c, v, path);
  if (!raw) return undefined;
  const type = readType(mw.c, raw, path);
  if (type === undefined) return undefined;
  if (!allowed.includes(type)) {
    mw.c.unionType(path, allowed);
    return undefined;
  }
  switch (type) {
    case C.ACTION_ROW:
      return actionRow(mw, raw, path);
    case C.BUTTON:
      return button(mw, raw, path);
    case C.SECTION:
      return section(mw, raw, path);
    case C.TEXT_DISPLAY:
      return textDisplay(mw, raw, path);
    case C.THUMBNAIL:
      return thumbnail(mw, raw, path);
    case C.MEDIA_GALLERY:
      return mediaGallery(mw, raw, path);
    case C.FILE:
      return file(mw, raw, path);
    case C.SEPARATOR:
      return separator(mw, raw, path);
    case C.CONTAINER:
      return container(mw, raw, path);
    default: {
      const out = select(mw.w, raw, path, type, { modal: false });
      if (typeof out.custom_id === 'string') mw.leaves.push({ type, id: 0, custom_id: out.custom_id, component: out });
      return out;
    }
  }
}

function children(mw: MessageWalk, raw: Obj, path: Path, min: number, max: number, allowed: readonly number[]): Obj[] {
  const p = [...path, 'components'];
  const list = mw.c.arr(raw.components, p, min, max) ?? [];
  const out: Obj[] = [];
  list.forEach((v, i) => {
    const n = component(mw, v, [...p, i], allowed);
    if (n) out.push(n);
  });
  return out;
}

/** ≤ 5 buttons, or exactly one select. */
function actionRow(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const out = head(mw.w, raw, path, C.ACTION_ROW);
  const items = children(mw, raw, path, 1, LIMITS.rowButtons, ROW_CHILDREN);
  if (items.length > 1 && items.some((x) => SELECT_TYPES.includes(x.type as number))) {
    mw.c.add([...path, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
  }
  out.components = items;
  return out;
}

function button(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const { c, w } = mw;
  const out = head(w, raw, path, C.BUTTON);
  const style = c.oneOf(raw, 'style', path, Object.values(ButtonStyle), true);
  out.style = style;
  const forbid = (key: string, why: string) => {
    if (raw[key] != null) c.add([...path, key], 'BUTTON_COMPONENT_INVALID_FIELD', why);
  };
  if (style === ButtonStyle.PREMIUM) {
    for (const key of ['custom_id', 'label', 'url', 'emoji']) forbid(key, `Premium buttons cannot have a ${key}.`);
    const sku = c.snowflake(raw, 'sku_id', path, true);
    if (sku !== undefined && !mw.opts.skuExists?.(sku)) c.add([...path, 'sku_id'], 'BUTTON_COMPONENT_INVALID_SKU', 'Unknown SKU.');
    out.sku_id = sku;
  } else {
    if (raw.sku_id != null) forbid('sku_id', 'Only premium buttons can have a sku_id.');
    out.label = c.str(raw, 'label', path, 0, LIMITS.buttonLabel);
    out.emoji = emoji(c, raw, path);
    if (style === ButtonStyle.LINK) {
      forbid('custom_id', 'Link buttons cannot have a custom_id.');
      const url = c.str(raw, 'url', path, 1, LIMITS.buttonUrl, true);
      if (url !== undefined && !/^(https?|discord):\/\/\S+$/i.test(url)) c.add([...path, 'url'], 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
      out.url = url;
    } else if (style !== undefined) {
      forbid('url', 'Only link buttons can have a url.');
      out.custom_id = w.customId(raw, path);
    }
    if (style !== undefined && !out.label && raw.emoji == null)
      c.add([...path, 'label'], 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED', 'A button needs a label or an emoji.');
  }
  out.disabled = c.bool(raw, 'disabled', path);
  compact(out);
  if (typeof out.custom_id === 'string') mw.leaves.push({ type: C.BUTTON, id: 0, custom_id: out.custom_id, component: out });
  return out;
}

/** 1–3 Text Displays beside one accessory (Button or Thumbnail). */
function section(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const out = head(mw.w, raw, path, C.SECTION);
  out.components = children(mw, raw, path, 1, LIMITS.sectionTexts, [C.TEXT_DISPLAY]);
  if (raw.accessory == null) mw.c.required([...path, 'accessory']);
  else out.accessory = component(mw, raw.accessory, [...path, 'accessory'], ACCESSORY);
  return compact(out);
}

function textDisplay(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const out = head(mw.w, raw, path, C.TEXT_DISPLAY);
  out.content = mw.c.str(raw, 'content', path, 1, LIMITS.textDisplay, true);
  return compact(out);
}

function thumbnail(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const { c } = mw;
  const out = head(mw.w, raw, path, C.THUMBNAIL);
  out.media = media(mw, raw, 'media', path, false);
  out.description = nullableText(c, raw, 'description', path, LIMITS.mediaDescription);
  out.spoiler = c.bool(raw, 'spoiler', path) ?? false;
  return compact(out);
}

function mediaGallery(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const { c } = mw;
  const out = head(mw.w, raw, path, C.MEDIA_GALLERY);
  const p = [...path, 'items'];
  const items = c.arr(raw.items, p, 1, LIMITS.galleryItems) ?? [];
  out.items = items.map((v, i) => {
    const ip = [...p, i];
    const item = c.obj(v, ip) ?? {};
    return compact({
      media: media(mw, item, 'media', ip, false),
      description: nullableText(c, item, 'description', ip, LIMITS.mediaDescription),
      spoiler: c.bool(item, 'spoiler', ip) ?? false,
    });
  });
  return out;
}

/** `file.url` must be `attachment://<filename>` of one of the message's attachments. */
function file(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const out = head(mw.w, raw, path, C.FILE);
  const item = media(mw, raw, 'file', path, true);
  out.file = item;
  out.spoiler = mw.c.bool(raw, 'spoiler', path) ?? false;
  const att = item && findAttachment(mw, item.__filename as string | undefined);
  if (item) delete item.__filename;
  if (att) {
    out.name = att.filename;
    if (att.size !== undefined) out.size = att.size;
  }
  return compact(out);
}

function separator(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const { c } = mw;
  const out = head(mw.w, raw, path, C.SEPARATOR);
  out.divider = c.bool(raw, 'divider', path) ?? true;
  out.spacing = c.oneOf(raw, 'spacing', path, [1, 2]) ?? 1;
  return out;
}

function container(mw: MessageWalk, raw: Obj, path: Path): Obj {
  const { c } = mw;
  const out = head(mw.w, raw, path, C.CONTAINER);
  if (raw.accent_color === null) out.accent_color = null;
  else out.accent_color = c.int(raw, 'accent_color', path, 0, LIMITS.accentColor);
  out.spoiler = c.bool(raw, 'spoiler', path) ?? false;
  out.components = children(mw, raw, path, 1, LIMITS.v2Total, CONTAINER_CHILDREN);
  return compact(out);
}

function nullableText(c: Checker, o: Obj, key: string, path: Path, max: number): string | null | undefined {
  if (o[key] === null) return null;
  return c.str(o, key, path, 0, max);
}

function findAttachment(mw: MessageWalk, filename: string | undefined): AttachmentRef | undefined {
  if (filename === undefined) return undefined;
  return (mw.opts.attachments ?? []).find((a) => a.filename === filename);
}

/**
 * An unfurled media item `{url}`: http(s) or `attachment://<filename>` naming an attachment of the message. A
 * resolved attachment reference carries the stored file's url and metadata, as the platform returns it.
 */
function media(mw: MessageWalk, raw: Obj, key: string, path: Path, attachmentOnly: boolean): Obj | undefined {
  const { c } = mw;
  const p = [...path, key];
  const item = c.obj(raw[key], p);
  if (!item) return undefined;
  const url = c.str(item, 'url', p, 1, LIMITS.mediaUrl, true);
  if (url === undefined) return undefined;
  const up = [...p, 'url'];
  // A component echoed back from a fetched message names its attachment by the stored url.
  const stored = (mw.opts.attachments ?? []).find((a) => a.url !== undefined && (a.url === url || a.proxy_url === url));
  if (url.startsWith(ATTACHMENT_SCHEME) || stored) {
    const filename = stored ? stored.filename : url.slice(ATTACHMENT_SCHEME.length);
    const att = stored ?? findAttachment(mw, filename);
    if (!att) {
      c.add(up, 'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND', `No attachment named "${filename}" in this message.`);
      return undefined;
    }
    if (!att.url) return attachmentOnly ? { url, __filename: filename } : { url };
    const out: Obj = compact({
      url: att.url,
      proxy_url: att.proxy_url ?? att.url,
      width: att.width ?? undefined,
      height: att.height ?? undefined,
      content_type: att.content_type,
      attachment_id: att.id,
      loading_state: 2,
      flags: 0,
    });
    if (attachmentOnly) out.__filename = filename;
    return out;
  }
  if (attachmentOnly) {
    c.add(up, 'UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED', 'File components only support attachment:// URLs.');
    return undefined;
  }
  if (!/^https?:\/\/\S+$/i.test(url)) {
    c.add(up, 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
    return undefined;
  }
  return { url };
}
