import { z } from 'zod';
import { AssetWriter, charsPerLine, Composition, drawText, FilterGraph, FrameSpec, ffColor, fontSize, hexColor, wrap } from './composition';
import { FONTS } from './fonts';

const line = z.union([
  z.string().trim().min(1, { message: 'must not be empty' }).max(200, { message: 'must be at most 200 characters' }),
  z
    .object({
      text: z.string().trim().min(1, { message: 'must not be empty' }).max(200, { message: 'must be at most 200 characters' }),
      startFrame: z.number().int().min(0, { message: 'must be at least 0' }),
      endFrame: z.number().int().min(1, { message: 'must be at least 1' }),
    })
    .strict()
    .refine((l) => l.endFrame > l.startFrame, { message: 'endFrame must be after startFrame', path: ['endFrame'] }),
]);

const props = z
  .object({
    title: z.string().trim().max(120, { message: 'must be at most 120 characters' }).optional().describe('shown small at the top for the whole video'),
    lines: z
      .array(line)
      .min(1, { message: 'must have at least 1 line' })
      .max(100, { message: 'must have at most 100 lines' })
      .describe('lyric lines: strings share the duration equally in order; {text, startFrame, endFrame} are shown on frames [startFrame, endFrame)'),
    backgroundColor: hexColor('#0F172A'),
    textColor: hexColor('#E2E8F0'),
    highlightColor: hexColor('#38BDF8'),
  })
  .strict();

type Props = z.output<typeof props>;
type TimedLine = { text: string; startFrame: number; endFrame: number };

/** When each line is on screen: explicit frames, or an equal share of the duration in order. */
export function timeLines(lines: Props['lines'], durationInFrames: number): TimedLine[] {
  const share = durationInFrames / lines.length;
  return lines.map((l, i) =>
    typeof l === 'string'
      ? { text: l, startFrame: Math.floor(i * share), endFrame: Math.max(Math.floor((i + 1) * share), Math.floor(i * share) + 1) }
      : l,
  );
}

/** A lyric video: each line appears in turn (the current one highlighted, the previous one dimmed). */
export const lyricVideo: Composition<Props> = {
  id: 'lyric-video',
  title: 'Lyric video',
  description: 'Lyric lines timed over the duration: the current line large and highlighted, the previous one above it, dimmed.',
  props,
  example: { title: 'Luna Waves - Tidal', backgroundColor: '#0F172A', textColor: '#E2E8F0', highlightColor: '#38BDF8', lines: ['We drift on silver water', 'Counting every star', { text: 'Until the morning finds us', startFrame: 160, endFrame: 240 }] },
  check(p: Props, spec: FrameSpec) {
    return p.lines.flatMap((l, i) =>
      typeof l !== 'string' && l.endFrame > spec.durationInFrames
        ? [{ path: `lines.${i}.endFrame`, message: `must be at most durationInFrames (${spec.durationInFrames})` }]
        : [],
    );
  },
  async build(p: Props, spec: FrameSpec, assets: AssetWriter): Promise<FilterGraph> {
    const size = fontSize(spec, 0.07);
    const small = fontSize(spec, 0.045);
    const filters: string[] = [];
    if (p.title) {
      const file = await assets.text(wrap(p.title, charsPerLine(spec, small)));
      filters.push(drawText({ textFile: file, font: FONTS.regular(), size: small, color: ffColor(p.textColor, 0.8), y: `${small}` }));
    }
    const timed = timeLines(p.lines, spec.durationInFrames);
    for (const [i, l] of timed.entries()) {
      const file = await assets.text(wrap(l.text, charsPerLine(spec, size)));
      const last = l.endFrame - 1;
      filters.push(drawText({ textFile: file, font: FONTS.bold(), size, color: ffColor(p.highlightColor), enable: `between(n,${l.startFrame},${last})` }));
      const next = timed[i + 1];
      if (next) {
        // While the next line is current, this one stays above it, dimmed.
        const prevFile = await assets.text(wrap(l.text, charsPerLine(spec, small)));
        filters.push(
          drawText({ textFile: prevFile, font: FONTS.regular(), size: small, color: ffColor(p.textColor, 0.6), y: `h/2-text_h-${size * 2}`, enable: `between(n,${next.startFrame},${next.endFrame - 1})` }),
        );
      }
    }
    return { background: ffColor(p.backgroundColor), inputs: [], filter: `[0:v]${filters.join(',')}[v]`, audio: false };
  },
};
