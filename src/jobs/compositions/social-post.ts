import { z } from 'zod';
import { AssetWriter, charsPerLine, Composition, dataUrl, drawText, FfmpegInput, FilterGraph, FrameSpec, ffColor, fontSize, hexColor, quote, wrap } from './composition';
import { FONTS } from './fonts';

const props = z
  .object({
    caption: z.string().trim().min(1, { message: 'must not be empty' }).max(280, { message: 'must be at most 280 characters' }).describe('caption drawn over the background'),
    backgroundColor: hexColor('#1E3A8A'),
    textColor: hexColor('#FFFFFF'),
    backgroundImage: dataUrl(['image/png', 'image/jpeg'], 'background image, scaled to cover the frame; its width and height each within RENDER_MAX_IMAGE_SIDE pixels (4096 unless configured)').optional(),
    audio: dataUrl(['audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/ogg'], 'soundtrack, cut or padded with silence to the duration').optional(),
  })
  .strict();

type Props = z.output<typeof props>;

/** A social post: a caption over a colour or image background, fading in, with optional audio. */
export const socialPost: Composition<Props> = {
  id: 'social-post',
  title: 'Social post',
  description: 'A caption over a colour or image background (fades in over half a second), with an optional soundtrack.',
  props,
  example: { caption: 'New single out Friday', backgroundColor: '#1E3A8A', textColor: '#FFFFFF' },
  async build(p: Props, spec: FrameSpec, assets: AssetWriter): Promise<FilterGraph> {
    const inputs: FfmpegInput[] = [];
    const chains: string[] = [];
    let base = '[0:v]';
    if (p.backgroundImage) {
      inputs.push(await assets.media(p.backgroundImage));
      // The still is one frame, decoded, cropped to the frame's aspect (centred) and scaled once;
      // overlay repeats it on every frame after it ends. Cropping first keeps the scaled copy no larger than the frame.
      const { width: w, height: h } = spec;
      chains.push(
        `[1:v]format=rgb24,crop=w=${quote(`max(1,min(iw,ih*${w}/${h}))`)}:h=${quote(`max(1,min(ih,iw*${h}/${w}))`)},scale=${w}:${h},setsar=1[bg]`,
        '[0:v][bg]overlay=eof_action=repeat[base]',
      );
      base = '[base]';
    }
    const size = fontSize(spec, 0.07);
    const textFile = await assets.text(wrap(p.caption, charsPerLine(spec, size)));
    chains.push(
      `${base}${drawText({ textFile, font: FONTS.bold(), size, color: ffColor(p.textColor), alpha: 'min(1,t/0.5)', box: ffColor('#000000', 0.35) })}[v]`,
    );
    let audio = false;
    if (p.audio) {
      const index = inputs.length + 1;
      inputs.push(await assets.media(p.audio));
      chains.push(`[${index}:a]apad,atrim=duration=${(spec.durationInFrames / spec.fps).toFixed(6)}[a]`);
      audio = true;
    }
    return { background: ffColor(p.backgroundColor), inputs, filter: chains.join(';'), audio };
  },
};
