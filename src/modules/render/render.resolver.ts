import { Arg, Authorized, Ctx, Extensions, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { maxItems } from '../../common/bounds';
import { COMPOSITIONS } from '../../jobs/compositions';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedInput, ParsedPage, subscribeAs } from '../../graphql/params';
import { cancelRunInput, parseRenderVideo, runsInput, watchRunInput, watchRunsInput } from './render.inputs';
import { RunStatus, type RenderPayload } from './render.entity';
import { RenderRepository } from './render.repository';
import { RenderService } from './render.service';
import { CancelRunInputType, CompositionType, RenderRunPage, RenderRunType, RenderVideoInputType, RunsInputType } from './render.types';

/** The request's render service (resolvers, the subscription and the federation reference build it the same way). */
export const renders = (ctx: Context): RenderService =>
  new RenderService(new RenderRepository(ctx.db), ctx.loaders, ctx.deps.render, renderSettings(ctx), ctx.log);

/** The deployment's render limits, with the caller's own where an admin set them (src/auth/limit-overrides.ts). */
function renderSettings(ctx: Context) {
  const settings = ctx.deps.config.render;
  if (!ctx.viewer) return settings;
  const accountId = ctx.viewer.accountId;
  return {
    ...settings,
    maxActivePerAccount: ctx.deps.limits.limit(accountId, 'renderMaxActive', settings.maxActivePerAccount),
    dailyPixelFrames: ctx.deps.limits.limit(accountId, 'renderDailyPixelFrames', settings.dailyPixelFrames),
  };
}

@Resolver()
export class RenderResolver {
  @Authorized()
  @Mutation(() => RenderRunType, { description: 'Starts a video render; answers at once with the run as queued, to poll or watch. Limited per account: a few renders QUEUED or EXECUTING at once, and a rolling 24-hour budget of pixel-frames (width × height × durationInFrames); past either, RATE_LIMITED (429) with Retry-After and nothing is queued' })
  renderVideo(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedInput(() => RenderVideoInputType, (input, { deps }) => parseRenderVideo(input, deps.config.render)) input: RenderPayload,
  ): Promise<RenderRunType> {
    return renders(ctx).start(viewer, input);
  }

  @Authorized()
  @Extensions(maxItems(COMPOSITIONS.length))
  @Query(() => [CompositionType], { nullable: true, description: 'The compositions a render can name, with the JSON Schema of their props' })
  compositions(@Ctx() ctx: Context): CompositionType[] {
    return renders(ctx).compositions();
  }

  @Authorized()
  @Query(() => RenderRunPage, { nullable: true, description: 'One render run (runId), or the account\'s runs newest first, a page at a time (page, limit)' })
  runs(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(runsInput, { input: { typeFunc: () => RunsInputType, options: { nullable: true } } }) { input, page }: Paged<Parsed<typeof runsInput>>,
  ): Promise<RenderRunPage> {
    return renders(ctx).runs(viewer, input, page);
  }

  @Authorized()
  @Mutation(() => RenderRunType, { description: 'Cancels a QUEUED or EXECUTING run (an encoding one stops and its files are removed); answers the canceled run' })
  cancelRun(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CancelRunInputType, cancelRunInput) input: Parsed<typeof cancelRunInput>): Promise<RenderRunType> {
    return renders(ctx).cancel(viewer, input);
  }

  @Authorized()
  @Subscription(() => RenderRunType, {
    description: 'The run now, then every change of state or progress until it is COMPLETED, FAILED or CANCELED',
    subscribe: subscribeAs(watchRunInput, async (ctx, viewer, input) => renders(ctx).watch(viewer, input, ctx.standing)),
  })
  renderRun(@Root() run: RenderRunType | Error, @Arg('runId', () => String, { description: 'The run to watch: one of the caller\'s or of an account it may act for' }) _runId: string): RenderRunType {
    // The subscription ended early (reach lost, credential revoked): its last message is this error, with its code.
    if (run instanceof Error) throw run;
    return run;
  }

  @Authorized()
  @Subscription(() => RenderRunType, {
    description:
      'Every run the caller may see (its own, its organizations\' and their members\', its roster\'s: as `runs`), live: first the newest runs (`initial`, newest first), then each run as it changes state or progress, new runs included, whoever started them and on whichever instance. A run\'s changes a slow subscriber has not read yet are coalesced into its newest state. Ends with UNAUTHENTICATED when the credential is revoked; an account that leaves the caller\'s reach (a membership ended) stops appearing',
    subscribe: subscribeAs(watchRunsInput, async (ctx, viewer, input) => renders(ctx).watchAll(viewer, input, ctx.standing)),
  })
  renderRuns(
    @Root() run: RenderRunType | Error,
    @Arg('status', () => [RunStatus], { nullable: true, description: 'Only runs in one of these statuses (at most 5); a run leaving them is sent once more, in its new status. Absent: every status' })
    _status?: RunStatus[] | null,
    @Arg('initial', () => Int, { nullable: true, description: `How many of the newest runs in reach (with one of the statuses) are sent first, newest first, before the changes: 0 to 50, default 20; 0 sends only changes` })
    _initial?: number | null,
  ): RenderRunType {
    // The stream ended early (credential revoked, fell behind): its last message is this error, with its code.
    if (run instanceof Error) throw run;
    return run;
  }
}
