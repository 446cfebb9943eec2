import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { Account } from '../account/account.entity';

@Entity({ tableName: 'catalogs' })
export class Catalog extends BaseEntity {
  @Property({ type: 'text' })
  name!: string;
}

/** A catalog is linked to one or more accounts; the last unlink deletes the catalog. */
@Entity({ tableName: 'account_catalogs' })
@Unique({ name: 'account_catalogs_account_catalog_unique', properties: ['account', 'catalog'] })
export class AccountCatalog extends BaseEntity {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  account!: Account;

  @ManyToOne(() => Catalog, { deleteRule: 'cascade' })
  @Index({ name: 'account_catalogs_catalog_idx' })
  catalog!: Catalog;
}

/** A recording, identified by its ISRC (12 characters, upper case, no dashes). */
@Entity({ tableName: 'songs' })
export class Song {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'text' })
  isrc!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  album: string | null = null;

  @Property({ type: 'text', nullable: true })
  lyrics: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** Credits an artist account on a song. */
@Entity({ tableName: 'song_artists' })
@Unique({ name: 'song_artists_song_artist_unique', properties: ['song', 'artist'] })
export class SongArtist extends BaseEntity {
  @ManyToOne(() => Song, { deleteRule: 'cascade' })
  song!: Song;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'song_artists_artist_idx' })
  artist!: Account;
}

/** A song in a catalog. */
@Entity({ tableName: 'catalog_songs' })
@Unique({ name: 'catalog_songs_catalog_song_unique', properties: ['catalog', 'song'] })
export class CatalogSong extends BaseEntity {
  @ManyToOne(() => Catalog, { deleteRule: 'cascade' })
  catalog!: Catalog;

  @ManyToOne(() => Song, { deleteRule: 'cascade' })
  @Index({ name: 'catalog_songs_song_idx' })
  song!: Song;
}
