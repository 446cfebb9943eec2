import { GraphQLJSONObject } from 'graphql-scalars';
import { Directive, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Pagination, SuccessStatus } from '../../graphql/common.types';
import { RunStatus } from './render.entity';

registerEnumType(RunStatus, { name: 'RunStatus', description: 'QUEUED → EXECUTING → COMPLETED | FAILED | CANCELED' });

export enum ProcessingStatus {
  processing = 'processing',
}
registerEnumType(ProcessingStatus, { name: 'ProcessingStatus', description: 'Always `processing`: the render was accepted' });

@ObjectType('RenderOutput', { description: 'The rendered video of a COMPLETED run' })
export class RenderOutputType {
  @Field({ description: 'Signed link to the video file; it stops working at expiresAt' })
  url!: string;

  @Field()
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the video file is deleted under the retention policy (null: kept); the run then shows outputExpiredAt' })
  retainedUntil!: Date | null;

  @Field()
  mimeType!: string;

  @Field(() => Int, { description: 'File size in bytes' })
  bytes!: number;

  @Field(() => Int)
  width!: number;

  @Field(() => Int)
  height!: number;

  @Field(() => Int)
  fps!: number;

  @Field(() => Int)
  durationInFrames!: number;

  @Field({ description: 'h264, h265, vp8 or vp9' })
  codec!: string;
}

@Directive('@key(fields: "id")')
@ObjectType('RenderRun', { description: 'A video render run, from QUEUED to COMPLETED, FAILED or CANCELED' })
export class RenderRunType {
  @Field(() => ID)
  id!: string;

  @Field(() => RunStatus)
  status!: RunStatus;

  @Field({ description: 'What the run does: `render-video`' })
  taskIdentifier!: string;

  @Field(() => GraphQLJSONObject, { description: 'The render request: compositionId, inputProps (defaults applied), width, height, fps, durationInFrames, codec' })
  payload!: Record<string, unknown>;

  @Field(() => Float, { description: 'From 0 to 1 as frames are encoded' })
  progress!: number;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  @Field(() => Date, { nullable: true })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => Int, { description: 'Render attempts started so far (a retried or resumed run has more than one)' })
  attempts!: number;

  @Field(() => RenderOutputType, { nullable: true, description: 'Present when COMPLETED, until the video is deleted under the retention policy' })
  output!: RenderOutputType | null;

  @Field(() => Date, { nullable: true, description: 'When the video of this COMPLETED run was deleted under the retention policy; output is null from then on (render again for a new one)' })
  outputExpiredAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why the last attempt failed' })
  error!: string | null;
}

@ObjectType({ description: 'Answer of POST /api/video/render' })
export class RenderStarted {
  @Field(() => ProcessingStatus)
  status!: ProcessingStatus;

  @Field({ description: 'Poll it with GET /api/tasks/runs?runId=, or watch it with the renderRun subscription' })
  runId!: string;
}

@ObjectType({ description: 'Answer of GET /api/tasks/runs' })
export class RunsResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [RenderRunType])
  runs!: RenderRunType[];

  @Field(() => Pagination, { nullable: true, description: 'Position of this page in the account\'s runs; null when one run is asked for by runId' })
  pagination?: Pagination | null;
}

@ObjectType({ description: 'Answer of POST /api/tasks/runs/{runId}/cancel' })
export class RunResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => RenderRunType)
  run!: RenderRunType;
}

@ObjectType('Composition', { description: 'A video composition a render can name' })
export class CompositionType {
  @Field(() => ID, { description: 'The compositionId of POST /api/video/render' })
  id!: string;

  @Field()
  title!: string;

  @Field()
  description!: string;

  @Field(() => GraphQLJSONObject, { description: 'JSON Schema of its inputProps' })
  props!: Record<string, unknown>;

  @Field(() => GraphQLJSONObject, { description: 'inputProps that can be sent as they are' })
  example!: Record<string, unknown>;
}

@ObjectType({ description: 'Answer of GET /api/video/compositions' })
export class CompositionsResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [CompositionType])
  compositions!: CompositionType[];
}
