import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { requireViewer } from '../../auth/access';
import { validate, withoutNulls } from '../../common/validation';
import { SuccessStatus } from '../../graphql/common.types';
import type { Context } from '../../graphql/context';
import { cancelRunInput, parseRenderVideo, runsInput, watchRunInput } from './render.inputs';
import { RenderRepository } from './render.repository';
import { RenderService } from './render.service';
import { CompositionsResult, RenderRunType, RenderStarted, RunResult, RunsResult } from './render.types';

/** The request's render service (resolvers, the subscription and the federation reference build it the same way). */
export const renders = (ctx: Context): RenderService =>
  new RenderService(new RenderRepository(ctx.em), ctx.loaders, ctx.deps.render, ctx.deps.config.render, ctx.log);

@Resolver()
export class RenderResolver {
  @Authorized()
  @Mutation(() => RenderStarted, { description: 'Starts a video render; answers at once with the runId to poll or watch. Limited per account: a few renders QUEUED or EXECUTING at once, and a rolling 24-hour budget of pixel-frames (width × height × durationInFrames); past either, RATE_LIMITED (429) with Retry-After and nothing is queued' })
  async renderVideo(
    @Ctx() ctx: Context,
    @Arg('compositionId', () => String, { description: 'a composition of GET /api/video/compositions' }) compositionId: string,
    @Arg('inputProps', () => GraphQLJSONObject, { nullable: true, description: 'props of the composition' }) inputProps: Record<string, unknown> | null,
    @Arg('width', () => Int, { nullable: true, description: '1 to 3840, default 720' }) width: number | null,
    @Arg('height', () => Int, { nullable: true, description: '1 to 3840, default 1280' }) height: number | null,
    @Arg('fps', () => Int, { nullable: true, description: '1 to 60, default 30' }) fps: number | null,
    @Arg('durationInFrames', () => Int, { nullable: true, description: '1 to 1800, default 240' }) durationInFrames: number | null,
    @Arg('codec', () => String, { nullable: true, description: 'h264 (default), h265, vp8 or vp9' }) codec: string | null,
  ): Promise<RenderStarted> {
    return renders(ctx).start(requireViewer(ctx.viewer), parseRenderVideo({ compositionId, inputProps, width, height, fps, durationInFrames, codec }));
  }

  @Authorized()
  @Query(() => CompositionsResult, { description: 'The compositions a render can name, with the JSON Schema of their props' })
  compositions(@Ctx() ctx: Context): CompositionsResult {
    return { status: SuccessStatus.success, compositions: renders(ctx).compositions() };
  }

  @Authorized()
  @Query(() => RunsResult, { description: 'One render run (runId), or the account\'s runs newest first, a page at a time (page, limit)' })
  async runs(
    @Ctx() ctx: Context,
    @Arg('runId', () => String, { nullable: true }) runId: string | null,
    @Arg('page', () => Int, { nullable: true, description: 'Page number, from 1 (default 1); ignored with runId' }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: 'Runs per page, 1 to 100 (default 20)' }) limit: number | null,
    @Arg('account_id', () => String, { nullable: true, description: 'another account the caller may access' }) account_id: string | null,
  ): Promise<RunsResult> {
    return { status: SuccessStatus.success, ...(await renders(ctx).runs(requireViewer(ctx.viewer), validate(runsInput, withoutNulls({ runId, page, limit, account_id })))) };
  }

  @Authorized()
  @Mutation(() => RunResult, { description: 'Cancels a QUEUED or EXECUTING run (an encoding one stops and its files are removed)' })
  async cancelRun(@Ctx() ctx: Context, @Arg('runId', () => String) runId: string): Promise<RunResult> {
    return { status: SuccessStatus.success, run: await renders(ctx).cancel(requireViewer(ctx.viewer), validate(cancelRunInput, { runId })) };
  }

  @Authorized()
  @Subscription(() => RenderRunType, {
    description: 'The run now, then every change of state or progress until it is COMPLETED, FAILED or CANCELED',
    subscribe: async ({ args, context }) => {
      const ctx = context as Context;
      return renders(ctx).watch(requireViewer(ctx.viewer), validate(watchRunInput, args));
    },
  })
  renderRun(@Root() run: RenderRunType, @Arg('runId', () => String) _runId: string): RenderRunType {
    return run;
  }
}
