import { z } from 'zod';
import { AssetWriter, charsPerLine, Composition, drawText, FilterGraph, FrameSpec, ffColor, fontSize, hexColor, quote, wrap } from './composition';
import { FONTS } from './fonts';

const props = z
  .object({
    title: z.string().trim().min(1, { message: 'must not be empty' }).max(120, { message: 'must be at most 120 characters' }).describe('large centred title'),
    subtitle: z.string().trim().max(200, { message: 'must be at most 200 characters' }).optional().describe('smaller line under the title'),
    backgroundColor: hexColor('#111827'),
    textColor: hexColor('#F9FAFB'),
    accentColor: hexColor('#F59E0B'),
  })
  .strict();

type Props = z.output<typeof props>;

/** A title card: title and subtitle fading in over an accent bar that grows across the frame. */
export const titleCard: Composition<Props> = {
  id: 'title-card',
  title: 'Title card',
  description: 'A centred title with an optional subtitle; the text fades in while an accent bar slides in under the title.',
  props,
  example: { title: 'Luna Waves', subtitle: 'Live at the Harbour', backgroundColor: '#111827', textColor: '#F9FAFB', accentColor: '#F59E0B' },
  async build(p: Props, spec: FrameSpec, assets: AssetWriter): Promise<FilterGraph> {
    const titleSize = fontSize(spec, 0.1);
    const subSize = fontSize(spec, 0.05);
    const seconds = spec.durationInFrames / spec.fps;
    const fadeIn = Math.max(seconds / 4, 1 / spec.fps);
    const barHeight = Math.max(1, Math.round(spec.height * 0.012));
    const barY = Math.round(spec.height * 0.5 + titleSize * 0.2);
    const barWidth = Math.max(1, Math.round(spec.width * 0.8));
    const slide = `${Math.round(spec.width * 0.1)}-${barWidth}*(1-min(1,t/${fadeIn.toFixed(4)}))`;
    const inputs = [{ lavfi: `color=c=${ffColor(p.accentColor)}:s=${barWidth}x${barHeight}:r=${spec.fps},format=rgb24` }];
    const title = await assets.text(wrap(p.title, charsPerLine(spec, titleSize)));
    const alpha = `min(1,t/${fadeIn.toFixed(4)})`;
    const texts = [drawText({ textFile: title, font: FONTS.bold(), size: titleSize, color: ffColor(p.textColor), y: `${barY}-text_h-${titleSize}/2`, alpha })];
    if (p.subtitle) {
      const subtitle = await assets.text(wrap(p.subtitle, charsPerLine(spec, subSize)));
      texts.push(drawText({ textFile: subtitle, font: FONTS.regular(), size: subSize, color: ffColor(p.textColor), y: `${barY + barHeight}+${subSize}`, alpha }));
    }
    // The accent bar slides in from the left while the text fades in.
    const filter = `[0:v][1:v]overlay=x=${quote(slide)}:y=${barY}:shortest=1,${texts.join(',')}[v]`;
    return { background: ffColor(p.backgroundColor), inputs, filter, audio: false };
  },
};
