import { z } from 'zod';
import { AppError, FieldProblem } from '../../common/errors';
import { limitArg, pageArg, uuid, withoutNulls, zodProblems } from '../../common/validation';
import { RENDER_CODECS } from '../../jobs/codecs';
import { COMPOSITIONS, compositionIds, findComposition } from '../../jobs/compositions';
import { MediaLimits, mediaProblems } from '../../jobs/compositions/composition';
import type { RenderPayload } from './render.entity';

const intIn = (min: number, max: number, def: number, what: string) =>
  z
    .number({ message: 'must be an integer' })
    .int({ message: 'must be an integer' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` })
    .default(def)
    .describe(`${what}: ${min} to ${max}, default ${def}`);

/** POST /api/video/render (docs/api/renders.md and docs/api/rest.md: bounds and defaults). inputProps are checked by the composition. */
export const renderVideoInput = z.object({
  // Checked against the list by the service (its 400 lists them); the enum documents them for clients.
  compositionId: z
    .string({ message: 'is required' })
    .min(1, { message: 'must not be empty' })
    .describe('the id of one of the compositions (compositions)')
    .meta({ enum: compositionIds() }),
  inputProps: z.record(z.string(), z.unknown()).default({}).describe('props of the composition, as its JSON Schema in compositions describes them'),
  width: intIn(1, 3840, 720, 'width in pixels'),
  height: intIn(1, 3840, 1280, 'height in pixels'),
  fps: intIn(1, 60, 30, 'frames per second'),
  durationInFrames: intIn(1, 1800, 240, 'length in frames'),
  codec: z.enum(RENDER_CODECS, { message: `must be one of: ${RENDER_CODECS.join(', ')}` }).default('h264').describe('video codec: h264 and h265 in MP4, vp8 and vp9 in WebM'),
});

/**
 * Parses renderVideo's arguments with renderVideoInput and the composition's own props schema
 * (which depends on compositionId), reporting every problem of both at once (decisions §8). Media
 * props are checked against their declared type by the schema, and images for the size they
 * decode to against `limits`.
 */
export function parseRenderVideo(args: Record<string, unknown>, limits: MediaLimits): RenderPayload {
  const problems: FieldProblem[] = [];
  const parsed = renderVideoInput.safeParse(withoutNulls(args));
  if (!parsed.success) problems.push(...zodProblems(parsed.error));
  const compositionId = typeof args.compositionId === 'string' ? args.compositionId : undefined;
  const composition = compositionId ? findComposition(compositionId) : undefined;
  let props: Record<string, unknown> | undefined;
  if (compositionId && !composition) {
    problems.push({ field: 'compositionId', message: `must be one of: ${compositionIds().join(', ')}` });
  } else if (composition) {
    const checked = composition.props.safeParse(args.inputProps ?? {});
    if (!checked.success) problems.push(...zodProblems(checked.error, 'inputProps'));
    else {
      props = checked.data;
      for (const p of mediaProblems(composition.props, checked.data, limits)) problems.push({ field: `inputProps.${p.path}`, message: p.message });
      if (parsed.success && composition.check) {
        for (const p of composition.check(checked.data, parsed.data)) problems.push({ field: `inputProps.${p.path}`, message: p.message });
      }
    }
  }
  if (problems.length || !parsed.success || !composition || !props) {
    const message = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
    const aboutComposition = problems.some((p) => p.field === 'compositionId' || p.field.startsWith('inputProps'));
    throw new AppError('BAD_USER_INPUT', `Invalid input: ${message}${aboutComposition ? `. Known compositions: ${compositionIds().join(', ')}` : ''}`, {
      details: problems,
    });
  }
  const { width, height, fps, durationInFrames, codec } = parsed.data;
  return { compositionId: composition.id, inputProps: props, width, height, fps, durationInFrames, codec };
}

/** A render request that works as is (Swagger's "Try it out" starts from it): the last composition with its own example props. */
export function renderVideoExample(): Record<string, unknown> {
  const composition = COMPOSITIONS[COMPOSITIONS.length - 1]!;
  return { compositionId: composition.id, inputProps: composition.example, width: 720, height: 1280, fps: 30, durationInFrames: 240, codec: 'h264' };
}

/** GET /api/tasks/runs */
export const runsInput = z.object({
  runId: uuid().optional().describe('one run; without it, the account\'s runs newest first'),
  page: pageArg().describe('Page number, from 1 (ignored with runId)'),
  limit: limitArg(100, 20).describe('runs per page, 1 to 100 (default 20)'),
  account_id: uuid().optional().describe('another account the caller may access'),
});
export type RunsInput = z.output<typeof runsInput>;

/** POST /api/tasks/runs/{runId}/cancel */
export const cancelRunInput = z.object({
  runId: uuid().describe('the run to cancel (QUEUED or EXECUTING)'),
});
export type CancelRunInput = z.output<typeof cancelRunInput>;

/** GraphQL subscription renderRun(runId) */
export const watchRunInput = cancelRunInput;
export type WatchRunInput = z.output<typeof watchRunInput>;

/** The most runs the renderRuns subscription sends first. */
export const RUNS_STREAM_MAX_INITIAL = 50;

/** GraphQL subscription renderRuns(status, initial): every change of every run in reach. */
export const watchRunsInput = z.object({
  status: z
    .array(z.enum(['QUEUED', 'EXECUTING', 'COMPLETED', 'FAILED', 'CANCELED']))
    .max(5, { message: 'must list at most 5 statuses' })
    .optional()
    .describe('only runs in one of these statuses (a run leaving them is sent once more, in its new status); absent: every status'),
  initial: intIn(0, RUNS_STREAM_MAX_INITIAL, 20, 'how many of the newest runs in reach (with one of the statuses) are sent first, newest first, before the changes; 0: changes only'),
});
export type WatchRunsInput = z.output<typeof watchRunsInput>;
