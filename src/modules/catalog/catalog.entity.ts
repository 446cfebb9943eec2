import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { Account, Membership } from '../account';

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

  /** The membership a member linked this through: the link ends with it (null: linked in the account's own right). */
  @ManyToOne(() => Membership, { deleteRule: 'cascade', nullable: true })
  @Index({ name: 'account_catalogs_membership_idx' })
  membership!: Membership | null;
}

/**
 * A song in a catalog: the catalog's own values for an ISRC (12 characters, upper case, no
 * dashes). Another catalog holding the same ISRC has an entry of its own.
 */
@Entity({ tableName: 'catalog_songs' })
@Unique({ name: 'catalog_songs_catalog_isrc_unique', properties: ['catalog', 'isrc'] })
export class CatalogSong extends BaseEntity {
  @ManyToOne(() => Catalog, { deleteRule: 'cascade' })
  catalog!: Catalog;

  @Property({ type: 'text' })
  @Index({ name: 'catalog_songs_isrc_idx' })
  isrc!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  album: string | null = null;

  @Property({ type: 'text', nullable: true })
  lyrics: string | null = null;
}

/** Credits an artist account on one catalog entry. */
@Entity({ tableName: 'catalog_song_artists' })
@Unique({ name: 'catalog_song_artists_entry_artist_unique', properties: ['catalogSong', 'artist'] })
export class CatalogSongArtist extends BaseEntity {
  @ManyToOne(() => CatalogSong, { deleteRule: 'cascade' })
  catalogSong!: CatalogSong;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'catalog_song_artists_artist_idx' })
  artist!: Account;
}
