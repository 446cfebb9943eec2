import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { imageDimensions, MEDIA_TYPES, MediaDemuxer } from './media';

/** Size and timing of the video being rendered. */
export interface FrameSpec {
  width: number;
  height: number;
  fps: number;
  durationInFrames: number;
}

/**
 * One ffmpeg input: a generated source (a lavfi graph the composition wrote, opening no file), or a
 * file of the job's own with the demuxer that must read it. There is no way to hand ffmpeg a file
 * without naming its format: the encoder forces it and allows the file protocol only.
 */
export type FfmpegInput = { lavfi: string } | { file: string; demuxer: MediaDemuxer; maxPixels?: number };

/**
 * An ffmpeg filter graph: extra inputs (after input 0, a solid colour source made by the encoder)
 * and a filter_complex that labels its video output [v] and, when there is audio, [a].
 */
export interface FilterGraph {
  background: string;
  inputs: FfmpegInput[];
  filter: string;
  audio: boolean;
}

/**
 * Writes a composition's files (texts, decoded images and audio) into the job's own directory.
 * With `limits`, ffmpeg refuses to decode an image larger than they allow, whatever its header said.
 */
export class AssetWriter {
  private count = 0;
  constructor(
    readonly dir: string,
    private readonly limits?: MediaLimits,
  ) {}

  async text(content: string): Promise<string> {
    return this.file('txt', Buffer.from(content, 'utf8'));
  }

  async file(extension: string, data: Buffer): Promise<string> {
    this.count += 1;
    const path = join(this.dir, `asset-${this.count}.${extension}`);
    await writeFile(path, data);
    return path;
  }

  /** Writes a media prop (a data URL of MEDIA_TYPES) and answers the input that reads it with its own demuxer. */
  async media(value: string): Promise<FfmpegInput> {
    const { type, data } = decodeDataUrl(value);
    const media = MEDIA_TYPES[type];
    if (!media) throw new Error(`no demuxer for ${type}`);
    const maxPixels = media.kind === 'image' && this.limits ? this.limits.maxImageSide ** 2 : undefined;
    return { file: await this.file(media.extension, data), demuxer: media.demuxer, ...(maxPixels ? { maxPixels } : {}) };
  }
}

export interface Composition<P extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  title: string;
  description: string;
  props: z.ZodType<P>;
  /** Props a client can send as they are. */
  example: P;
  /** Checks that depend on the frame spec (e.g. a lyric line ending after the last frame). */
  check?(props: P, spec: FrameSpec): { path: string; message: string }[];
  build(props: P, spec: FrameSpec, assets: AssetWriter): Promise<FilterGraph>;
}

export const hexColor = (fallback: string) =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be a colour like #1E3A8A' })
    .default(fallback)
    .describe('colour as #RRGGBB');

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+={0,2})$/;
const MAX_ASSET_CHARS = 700_000;

/** Media props (made by dataUrl) and the types each takes: what mediaFields finds in a props schema. */
const mediaProps = z.registry<{ types: string[] }>();

/**
 * An inline asset (base64 data URL) of one of the given media types (keys of MEDIA_TYPES): no
 * server-side fetching. The bytes must be what the declared type says (an image's header must
 * give its size), so nothing else (a playlist, a concat script) passes as media.
 */
export const dataUrl = (types: string[], what: string) => {
  for (const type of types) if (!MEDIA_TYPES[type]) throw new Error(`no media type ${type}`);
  const schema = z
    .string()
    .max(MAX_ASSET_CHARS, { message: `must be at most ${MAX_ASSET_CHARS} characters` })
    .superRefine((v, ctx) => {
      const m = DATA_URL.exec(v);
      if (!m || !types.includes(m[1])) {
        ctx.addIssue({ code: 'custom', message: `must be a base64 data URL of ${types.join(', ')}` });
        return;
      }
      const bytes = Buffer.from(m[2], 'base64');
      const media = MEDIA_TYPES[m[1]]!;
      if (!media.matches(bytes) || (media.kind === 'image' && !imageDimensions(bytes))) {
        ctx.addIssue({ code: 'custom', message: `must be ${m[1]}: its bytes are not` });
      }
    })
    .describe(`${what}: a base64 data URL (${types.join(', ')})`);
  schema.register(mediaProps, { types });
  return schema;
};

/** The media props of a props schema (through objects, arrays, optional and default), with the types each takes. */
export function mediaFields(schema: z.ZodType, path: (string | number)[] = []): { path: (string | number)[]; types: string[] }[] {
  const meta = mediaProps.get(schema);
  if (meta) return [{ path, types: meta.types }];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return mediaFields(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, s]) => mediaFields(s, [...path, key]));
  if (schema instanceof z.ZodArray) return mediaFields(schema.element as z.ZodType, [...path, '*']);
  return [];
}

export interface MediaLimits {
  /** Longest side an image prop may decode to (RENDER_MAX_IMAGE_SIDE). */
  maxImageSide: number;
}

/** Media props of parsed `props` over the limits (an image that decodes too large): each a path and why. */
export function mediaProblems(schema: z.ZodType, props: unknown, limits: MediaLimits): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const visit = (value: unknown, path: (string | number)[], at: string[]) => {
    if (value === undefined || value === null) return;
    if (!path.length) {
      if (typeof value !== 'string') return;
      const { type, data } = decodeDataUrl(value);
      if (MEDIA_TYPES[type]?.kind !== 'image') return;
      const size = imageDimensions(data);
      if (size && (size.width > limits.maxImageSide || size.height > limits.maxImageSide)) {
        problems.push({ path: at.join('.'), message: `is ${size.width}×${size.height} pixels; images may be at most ${limits.maxImageSide}×${limits.maxImageSide}` });
      }
      return;
    }
    const [head, ...rest] = path;
    if (head === '*') {
      if (Array.isArray(value)) value.forEach((item, i) => visit(item, rest, [...at, String(i)]));
    } else if (typeof value === 'object') {
      visit((value as Record<string, unknown>)[head as string], rest, [...at, String(head)]);
    }
  };
  for (const field of mediaFields(schema)) visit(props, field.path, []);
  return problems;
}

export function decodeDataUrl(value: string): { type: string; data: Buffer } {
  const m = DATA_URL.exec(value);
  if (!m) throw new Error('not a data URL');
  return { type: m[1], data: Buffer.from(m[2], 'base64') };
}

/** ffmpeg colour from #RRGGBB. */
export const ffColor = (hex: string, alpha?: number) => `0x${hex.slice(1)}${alpha === undefined ? '' : `@${alpha}`}`;

/**
 * Quotes a filter option value (a path we made, or an expression). User text never goes into the
 * graph: it is written to a file and drawn with drawtext's textfile option.
 */
export function quote(value: string): string {
  if (/['\\\n;[\]]/.test(value)) throw new Error(`unsafe filter value: ${value}`);
  return `'${value}'`;
}

/** Breaks text into lines of at most `maxChars` characters, on spaces where possible. */
export function wrap(text: string, maxChars: number): string {
  const limit = Math.max(1, maxChars);
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (rest.length > limit) {
        if (line) {
          lines.push(line);
          line = '';
        }
        lines.push(rest.slice(0, limit));
        rest = rest.slice(limit);
      }
      if (!line) line = rest;
      else if (line.length + 1 + rest.length <= limit) line = `${line} ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** A font size proportional to the smaller side, never below 1 pixel. */
export const fontSize = (spec: FrameSpec, fraction: number) => Math.max(1, Math.round(Math.min(spec.width, spec.height) * fraction));

/** Characters per line that fit the width at a font size (average glyph ≈ 0.6 em). */
export const charsPerLine = (spec: FrameSpec, size: number, margin = 0.1) =>
  Math.max(1, Math.floor((spec.width * (1 - 2 * margin)) / (size * 0.6)));

export interface DrawTextOptions {
  textFile: string;
  font: string;
  size: number;
  color: string;
  x?: string;
  y?: string;
  alpha?: string;
  enable?: string;
  box?: string;
}

/** A drawtext filter reading its text from a file (no expansion: the text is drawn as written). */
export function drawText(o: DrawTextOptions): string {
  const parts = [
    `fontfile=${quote(o.font)}`,
    `textfile=${quote(o.textFile)}`,
    'expansion=none',
    `fontsize=${o.size}`,
    `fontcolor=${o.color}`,
    `line_spacing=${Math.round(o.size * 0.25)}`,
    `x=${quote(o.x ?? '(w-text_w)/2')}`,
    `y=${quote(o.y ?? '(h-text_h)/2')}`,
  ];
  if (o.alpha) parts.push(`alpha=${quote(o.alpha)}`);
  if (o.enable) parts.push(`enable=${quote(o.enable)}`);
  if (o.box) parts.push('box=1', `boxcolor=${o.box}`, `boxborderw=${Math.max(1, Math.round(o.size * 0.4))}`);
  return `drawtext=${parts.join(':')}`;
}
