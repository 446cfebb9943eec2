import { z } from 'zod';
import type { Composition } from './composition';
import { lyricVideo } from './lyric-video';
import { socialPost } from './social-post';
import { titleCard } from './title-card';

export type { Composition, FilterGraph, FrameSpec } from './composition';

/** Every composition a render can name, by id. */
export const COMPOSITIONS: readonly Composition[] = [socialPost, lyricVideo, titleCard] as unknown as Composition[];

export function findComposition(id: string): Composition | undefined {
  return COMPOSITIONS.find((c) => c.id === id);
}

export const compositionIds = (): string[] => COMPOSITIONS.map((c) => c.id);

/** JSON Schema of a composition's inputProps (what GET /api/video/compositions lists). */
export function propsSchema(composition: Composition): Record<string, unknown> {
  return z.toJSONSchema(composition.props, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

