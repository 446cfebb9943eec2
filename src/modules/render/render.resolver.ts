import { pageRequest } from '../../common/paging';
import { Arg, Authorized, Ctx, Extensions, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { maxItems } from '../../common/bounds';
import { COMPOSITIONS } from '../../jobs/compositions';
import { requireViewer } from '../../auth/access';
import { validate, withoutNulls } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { cancelRunInput, parseRenderVideo, runsInput, watchRunInput } from './render.inputs';
import { RenderRepository } from './render.repository';
import { RenderService } from './render.service';
import { CancelRunInputType, CompositionType, RenderRunPage, RenderRunType, RenderVideoInputType, RunsInputType } from './render.types';

/** The request's render service (resolvers, the subscription and the federation reference build it the same way). */
export const renders = (ctx: Context): RenderService =>
  new RenderService(new RenderRepository(ctx.em), ctx.loaders, ctx.deps.render, ctx.deps.config.render, ctx.log);

@Resolver()
export class RenderResolver {
  @Authorized()
  @Mutation(() => RenderRunType, { description: 'Starts a video render; answers at once with the run as queued, to poll or watch. Limited per account: a few renders QUEUED or EXECUTING at once, and a rolling 24-hour budget of pixel-frames (width × height × durationInFrames); past either, RATE_LIMITED (429) with Retry-After and nothing is queued' })
  renderVideo(@Ctx() ctx: Context, @Arg('input', () => RenderVideoInputType) input: RenderVideoInputType): Promise<RenderRunType> {
    return renders(ctx).start(requireViewer(ctx.viewer), parseRenderVideo({ ...input }, ctx.deps.config.render));
  }

  @Authorized()
  @Extensions(maxItems(COMPOSITIONS.length))
  @Query(() => [CompositionType], { description: 'The compositions a render can name, with the JSON Schema of their props' })
  compositions(@Ctx() ctx: Context): CompositionType[] {
    return renders(ctx).compositions();
  }

  @Authorized()
  @Query(() => RenderRunPage, { description: 'One render run (runId), or the account\'s runs newest first, a page at a time (page, limit)' })
  runs(@Ctx() ctx: Context, @Arg('input', () => RunsInputType, { nullable: true }) input?: RunsInputType | null): Promise<RenderRunPage> {
    const { first: _first, after: _after, ...offsetInput } = input ?? {};
    const parsed = validate(runsInput, withoutNulls({ ...offsetInput }));
    return renders(ctx).runs(requireViewer(ctx.viewer), parsed, pageRequest(parsed, input ?? {}));
  }

  @Authorized()
  @Mutation(() => RenderRunType, { description: 'Cancels a QUEUED or EXECUTING run (an encoding one stops and its files are removed); answers the canceled run' })
  cancelRun(@Ctx() ctx: Context, @Arg('input', () => CancelRunInputType) input: CancelRunInputType): Promise<RenderRunType> {
    return renders(ctx).cancel(requireViewer(ctx.viewer), validate(cancelRunInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Subscription(() => RenderRunType, {
    description: 'The run now, then every change of state or progress until it is COMPLETED, FAILED or CANCELED',
    subscribe: async ({ args, context }) => {
      const ctx = context as Context;
      return renders(ctx).watch(requireViewer(ctx.viewer), validate(watchRunInput, args), ctx.standing);
    },
  })
  renderRun(@Root() run: RenderRunType | Error, @Arg('runId', () => String) _runId: string): RenderRunType {
    // The subscription ended early (reach lost, credential revoked): its last message is this error, with its code.
    if (run instanceof Error) throw run;
    return run;
  }
}
