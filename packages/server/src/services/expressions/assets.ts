import crypto from 'node:crypto';
import type { Ctx } from '../context.js';
import { ApiError, fieldError } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import type { Repos } from '../../store/repos/index.js';

/**
 * The bytes behind expressions (emoji images, sticker files, soundboard sounds, event covers): data URIs and uploads are
 * decoded, recognised by their content (never by the declared type alone), size-checked, and kept in
 * `expression_assets` under the owner's id for the CDN routes.
 */

export type AssetFormat = 'png' | 'apng' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'mp3' | 'ogg' | 'lottie';

export interface Asset {
  data: Buffer;
  format: AssetFormat;
  contentType: string;
  animated: boolean;
}

const CONTENT_TYPES: Record<AssetFormat, string> = {
  png: 'image/png',
  apng: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  lottie: 'application/json',
};
export const EXTENSIONS: Record<AssetFormat, string> = {
  png: 'png',
  apng: 'png',
  jpeg: 'jpg',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
  mp3: 'mp3',
  ogg: 'ogg',
  lottie: 'json',
};

const ascii = (b: Buffer, start: number, end: number) => b.subarray(start, end).toString('latin1');

/** PNG is APNG when an acTL chunk comes before the first IDAT. */
function isApng(b: Buffer): boolean {
  let off = 8;
  while (off + 8 <= b.length) {
    const len = b.readUInt32BE(off);
    const type = ascii(b, off + 4, off + 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    off += 12 + len;
  }
  return false;
}

/** A GIF is animated when it holds more than one image. */
function gifFrames(b: Buffer): number {
  let frames = 0;
  for (let i = 13; i < b.length - 1 && frames < 2; i++) if (b[i] === 0x00 && b[i + 1] === 0x2c) frames++;
  return Math.max(frames, 1);
}

function isAnimatedWebp(b: Buffer): boolean {
  if (ascii(b, 12, 16) === 'VP8X' && b.length > 20) return (b[20] & 0x02) !== 0;
  return b.includes(Buffer.from('ANIM'));
}

function isLottie(b: Buffer): boolean {
  if (b.length > 512 * 1024) return false;
  const text = b.toString('utf8').trim();
  if (!text.startsWith('{')) return false;
  try {
    const j = JSON.parse(text);
    return !!j && typeof j === 'object' && 'layers' in j && ('fr' in j || 'op' in j);
  } catch {
    return false;
  }
}

/** What the bytes are, by their signature. */
export function sniff(b: Buffer): { format: AssetFormat; animated: boolean } | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    const apng = isApng(b);
    return { format: apng ? 'apng' : 'png', animated: apng };
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { format: 'jpeg', animated: false };
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return { format: 'gif', animated: gifFrames(b) > 1 };
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return { format: 'webp', animated: isAnimatedWebp(b) };
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(b, 8, 12)))
    return { format: 'avif', animated: ascii(b, 8, 12) === 'avis' };
  if (b.length >= 4 && ascii(b, 0, 4) === 'OggS') return { format: 'ogg', animated: false };
  if (b.length >= 3 && ascii(b, 0, 3) === 'ID3') return { format: 'mp3', animated: false };
  if (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0) return { format: 'mp3', animated: false };
  if (isLottie(b)) return { format: 'lottie', animated: true };
  return null;
}

const DATA_URI = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?((?:;[a-z0-9-]+=[^;,]*)*);base64,([A-Za-z0-9+/=\s]*)$/i;

/** The bytes of a `data:<type>;base64,<data>` URI; null when it is not one. */
export function decodeDataUri(v: unknown): Buffer | null {
  if (typeof v !== 'string' || v.length > 12_000_000) return null;
  const m = DATA_URI.exec(v);
  if (!m) return null;
  const data = Buffer.from(m[3].replace(/\s/g, ''), 'base64');
  return data.length ? data : null;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kb`;

export interface ImageRules {
  field: string | (string | number)[];
  allowed: AssetFormat[];
  maxBytes: number;
}

/** A data URI image for an image field: 50035 IMAGE_INVALID when unreadable, BINARY_TYPE_MAX_SIZE when too large. */
export function imageFromDataUri(v: unknown, rules: ImageRules): Asset {
  const data = decodeDataUri(v);
  if (!data) throw fieldError(rules.field, 'IMAGE_INVALID', 'Invalid image data');
  if (data.length > rules.maxBytes) throw fieldError(rules.field, 'BINARY_TYPE_MAX_SIZE', `File cannot be larger than ${kb(rules.maxBytes)}.`);
  const kind = sniff(data);
  if (!kind || !rules.allowed.includes(kind.format)) throw fieldError(rules.field, 'IMAGE_INVALID', 'Invalid image data');
  return { data, format: kind.format, contentType: CONTENT_TYPES[kind.format], animated: kind.animated };
}

/** Any upload checked against a list of formats. */
export function assetFromBytes(data: Buffer, rules: ImageRules, invalid: () => ApiError): Asset {
  if (data.length > rules.maxBytes) throw fieldError(rules.field, 'BINARY_TYPE_MAX_SIZE', `File cannot be larger than ${kb(rules.maxBytes)}.`);
  const kind = sniff(data);
  if (!kind || !rules.allowed.includes(kind.format)) throw invalid();
  return { data, format: kind.format, contentType: CONTENT_TYPES[kind.format], animated: kind.animated };
}

/** A short content hash, used where the CDN path carries one (event covers). */
export const assetHash = (data: Buffer) => crypto.createHash('md5').update(data).digest('hex');

// ---- audio duration ---------------------------------------------------------------------------------------------

const MP3_BITRATES: Record<string, number[]> = {
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v2l3: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  v2l2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES = [44100, 48000, 32000];

/** Seconds of MPEG audio (layers II and III), walking frame headers; null when no frame parses. */
function mp3Duration(b: Buffer): number | null {
  let off = 0;
  if (ascii(b, 0, 3) === 'ID3' && b.length >= 10) off = 10 + (((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f));
  let seconds = 0;
  let frames = 0;
  while (off + 4 <= b.length) {
    if (b[off] !== 0xff || (b[off + 1] & 0xe0) !== 0xe0) {
      if (frames) break;
      off++;
      continue;
    }
    const version = (b[off + 1] >> 3) & 3; // 3 MPEG1, 2 MPEG2, 0 MPEG2.5
    const layer = (b[off + 1] >> 1) & 3; // 1 III, 2 II
    const bitrateIdx = b[off + 2] >> 4;
    const rateIdx = (b[off + 2] >> 2) & 3;
    const padding = (b[off + 2] >> 1) & 1;
    if (version === 1 || (layer !== 1 && layer !== 2) || bitrateIdx === 0 || bitrateIdx === 15 || rateIdx === 3) {
      if (frames) break;
      off++;
      continue;
    }
    const v1 = version === 3;
    const table = MP3_BITRATES[`${v1 ? 'v1' : 'v2'}${layer === 1 ? 'l3' : 'l2'}`];
    const bitrate = table[bitrateIdx] * 1000;
    const rate = MP3_RATES[rateIdx] / (v1 ? 1 : version === 2 ? 2 : 4);
    const samples = layer === 1 && !v1 ? 576 : 1152;
    const length = Math.floor(((samples / 8) * bitrate) / rate) + padding;
    if (length < 4) break;
    seconds += samples / rate;
    frames++;
    off += length;
  }
  return frames ? seconds : null;
}

/** Seconds of Ogg Opus or Vorbis audio: the last page's granule position over the sample rate. */
function oggDuration(b: Buffer): number | null {
  if (b.length < 28) return null;
  const segments = b[26];
  const packet = 27 + segments;
  let rate = 0;
  let preSkip = 0;
  if (ascii(b, packet, packet + 8) === 'OpusHead' && b.length >= packet + 12) {
    rate = 48000;
    preSkip = b.readUInt16LE(packet + 10);
  } else if (b[packet] === 1 && ascii(b, packet + 1, packet + 7) === 'vorbis' && b.length >= packet + 16) {
    rate = b.readUInt32LE(packet + 12);
  }
  if (!rate) return null;
  const last = b.lastIndexOf(Buffer.from('OggS'));
  if (last < 0 || last + 14 > b.length) return null;
  const granule = Number(b.readBigUInt64LE(last + 6));
  if (!Number.isFinite(granule) || granule <= 0 || granule >= 2 ** 53) return null;
  return Math.max(0, granule - preSkip) / rate;
}

export function audioDuration(a: Asset): number | null {
  if (a.format === 'mp3') return mp3Duration(a.data);
  if (a.format === 'ogg') return oggDuration(a.data);
  return null;
}

// ---- storage ----------------------------------------------------------------------------------------------------

/** Stores (replaces) the bytes behind an owner, in the unit of work `repos`. */
export async function storeAsset(repos: Repos, ctx: Ctx, ownerId: string, kind: string, a: Asset, hash: string | null = null): Promise<void> {
  await repos.expressions.putAsset(ownerId, { kind, contentType: a.contentType, hash, data: a.data, createdAt: ctx.clock.now() });
}

export async function readAsset(ctx: Ctx, ownerId: string, kind: string): Promise<{ data: Buffer; contentType: string; hash: string | null } | null> {
  if (!isId(ownerId)) return null;
  const row = await ctx.repos.expressions.readAsset(ownerId);
  if (!row || row.kind !== kind) return null;
  return { data: row.data, contentType: row.contentType, hash: row.hash };
}

export async function deleteAssets(repos: Repos, ids: string[]): Promise<void> {
  await repos.expressions.deleteAssets(ids);
}

/** Silent MPEG-1 Layer III audio (128 kb/s, 44.1 kHz, mono) of about `seconds`: the default soundboard sounds' bytes. */
export function silentMp3(seconds: number): Buffer {
  const frameLength = 417; // 144 * 128000 / 44100, no padding
  const frames = Math.max(1, Math.round((seconds * 44100) / 1152));
  const frame = Buffer.alloc(frameLength);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}
