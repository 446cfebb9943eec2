import { z } from 'zod';
import { AssetWriter, charsPerLine, Composition, dataUrl, decodeDataUrl, drawText, FilterGraph, FrameSpec, ffColor, fontSize, hexColor, wrap } from './composition';
import { FONTS } from './fonts';

const props = z
  .object({
    caption: z.string().trim().min(1, { message: 'must not be empty' }).max(280, { message: 'must be at most 280 characters' }).describe('caption drawn over the background'),
    backgroundColor: hexColor('#1E3A8A'),
    textColor: hexColor('#FFFFFF'),
    backgroundImage: dataUrl(['image/png', 'image/jpeg'], 'background image, scaled to cover the frame').optional(),
    audio: dataUrl(['audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/ogg'], 'soundtrack, cut or padded with silence to the duration').optional(),
  })
  .strict();

type Props = z.output<typeof props>;

const IMAGE_EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };
const AUDIO_EXT: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/ogg': 'ogg' };

/** A social post: a caption over a colour or image background, fading in, with optional audio. */
export const socialPost: Composition<Props> = {
  id: 'social-post',
  title: 'Social post',
  description: 'A caption over a colour or image background (fades in over half a second), with an optional soundtrack.',
  props,
  example: { caption: 'New single out Friday', backgroundColor: '#1E3A8A', textColor: '#FFFFFF' },
  async build(p: Props, spec: FrameSpec, assets: AssetWriter): Promise<FilterGraph> {
    const inputs: string[][] = [];
    const chains: string[] = [];
    let base = '[0:v]';
    if (p.backgroundImage) {
      const image = decodeDataUrl(p.backgroundImage);
      const path = await assets.file(IMAGE_EXT[image.type], image.data);
      inputs.push(['-loop', '1', '-framerate', String(spec.fps), '-i', path]);
      chains.push(
        `[1:v]scale=${spec.width}:${spec.height}:force_original_aspect_ratio=increase,crop=${spec.width}:${spec.height},setsar=1,format=rgb24[bg]`,
        '[0:v][bg]overlay=shortest=1[base]',
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
      const track = decodeDataUrl(p.audio);
      const path = await assets.file(AUDIO_EXT[track.type], track.data);
      const index = inputs.length + 1;
      inputs.push(['-i', path]);
      chains.push(`[${index}:a]apad,atrim=duration=${(spec.durationInFrames / spec.fps).toFixed(6)}[a]`);
      audio = true;
    }
    return { background: ffColor(p.backgroundColor), inputs, filter: chains.join(';'), audio };
  },
};
