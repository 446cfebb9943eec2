import { Entity, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';

/**
 * A provider answer as it was received, keyed by its kind and the normalized request that produced
 * it. Public provider data: shared by every account.
 */
@Entity({ tableName: 'research_answers' })
@Unique({ name: 'research_answers_kind_key_unique', properties: ['kind', 'key'] })
export class ResearchAnswer extends BaseEntity {
  /** track_stats, track_info, discover, curator, search, genres, artist_tracks, artist_playlists, platform_search. */
  @Property({ type: 'text' })
  kind!: string;

  @Property({ type: 'text' })
  key!: string;

  /** The provider that answered: platform_a, track_stats or music_intel. */
  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'json', columnType: 'jsonb' })
  payload!: unknown;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  capturedAt!: Date;
}
