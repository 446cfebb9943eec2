import { Entity, Enum, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Account } from '../account';
import type { RenderCodec } from '../../jobs/codecs';

export enum RunStatus {
  QUEUED = 'QUEUED',
  EXECUTING = 'EXECUTING',
  COMPLETED = 'COMPLETED',
  FAILED = 'FAILED',
  CANCELED = 'CANCELED',
}

export const TERMINAL_STATUSES: readonly RunStatus[] = [RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELED];

/** What was asked for: the composition, its checked props (defaults applied) and the video format. */
export interface RenderPayload {
  compositionId: string;
  inputProps: Record<string, unknown>;
  width: number;
  height: number;
  fps: number;
  durationInFrames: number;
  codec: RenderCodec;
}

/** The stored file of a completed run; its URL is signed when the run is read. */
export interface StoredOutput {
  key: string;
  mimeType: string;
  bytes: number;
  width: number;
  height: number;
  fps: number;
  durationInFrames: number;
  codec: RenderCodec;
}

/**
 * A render run. State changes are written with conditional SQL by the service and the workers;
 * a trigger bumps `version` and `updated_at` and announces each change (LISTEN/NOTIFY).
 */
@Entity({ tableName: 'render_runs' })
export class RenderRun {
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt' | 'status' | 'progress' | 'attempts' | 'version' | 'output' | 'error' | 'jobId' | 'startedAt' | 'finishedAt' | 'outputExpiredAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @Property({ type: 'text' })
  taskIdentifier!: string;

  @Enum({ items: () => RunStatus, columnType: 'text' })
  status: RunStatus = RunStatus.QUEUED;

  @Property({ type: 'json' })
  payload!: RenderPayload;

  @Property({ type: 'double' })
  progress: number = 0;

  @Property({ type: 'integer' })
  attempts: number = 0;

  @Property({ type: 'json', nullable: true })
  output: StoredOutput | null = null;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  jobId: string | null = null;

  @Property({ type: 'integer' })
  version: number = 0;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;

  /** When the retention sweep deleted the video (RENDER_RETENTION_HOURS); `output` is null from then on. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  outputExpiredAt: Date | null = null;
}
