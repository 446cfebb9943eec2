import { randomUUID } from 'node:crypto';
import { OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** uuid primary key plus creation/update stamps, shared by most tables. */
export abstract class BaseEntity<Optional extends string = never> {
  /** Properties with defaults, which em.create() may omit. */
  [OptionalProps]?: 'id' | 'createdAt' | 'updatedAt' | Optional;

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
