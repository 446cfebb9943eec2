import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** Size and timing of the video being rendered. */
export interface FrameSpec {
  width: number;
  height: number;
  fps: number;
  durationInFrames: number;
}

/**
 * An ffmpeg filter graph: extra inputs (after input 0, a solid colour source made by the encoder)
 * and a filter_complex that labels its video output [v] and, when there is audio, [a].
 */
export interface FilterGraph {
  background: string;
  inputs: string[][];
  filter: string;
  audio: boolean;
}

/** Writes a composition's files (texts, decoded images and audio) into the job's own directory. */
export class AssetWriter {
  private count = 0;
  constructor(readonly dir: string) {}

  async text(content: string): Promise<string> {
    return this.file('txt', Buffer.from(content, 'utf8'));
  }

  async file(extension: string, data: Buffer): Promise<string> {
    this.count += 1;
    const path = join(this.dir, `asset-${this.count}.${extension}`);
    await writeFile(path, data);
    return path;
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

/** An inline asset (base64 data URL) of one of the given media types: no server-side fetching. */
export const dataUrl = (types: string[], what: string) =>
  z
    .string()
    .max(MAX_ASSET_CHARS, { message: `must be at most ${MAX_ASSET_CHARS} characters` })
    .refine((v) => {
      const m = DATA_URL.exec(v);
      return Boolean(m && types.includes(m[1]));
    }, { message: `must be a base64 data URL of ${types.join(', ')}` })
    .describe(`${what}: a base64 data URL (${types.join(', ')})`);

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
