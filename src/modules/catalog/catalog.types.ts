import { LIST_BOUNDS } from '../../common/bounds';
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Page } from '../../graphql/common.types';
import { describe } from '../../common/validation';
import { AccountKind } from '../account';
import { addCatalogInput, catalogLink, catalogSongsInput, songItem, songRef } from './catalog.inputs';
import { AFTER_DESCRIPTION, FIRST_DESCRIPTION } from '../../common/paging';

@ObjectType('SongCredit', { description: 'An artist credited on a song' })
export class SongCredit {
  @Field(() => ID, { description: 'The credited artist account id (UUID)' })
  id!: string;

  @Field({ description: 'The credited artist name' })
  name!: string;

  @Field(() => Int, { description: 'When the artist was credited, in epoch seconds' })
  timestamp!: number;
}

@InputType('CatalogSongInput', { description: "A song to add to a catalog: upserts that catalog's entry for the ISRC, never another catalog's" })
export class CatalogSongInput {
  @Field(() => ID, { description: describe(songItem, 'catalog_id') })
  catalogId!: string;

  @Field({ description: describe(songItem, 'isrc') })
  isrc!: string;

  @Field(() => String, { nullable: true, description: describe(songItem, 'name') })
  name?: string | null;

  @Field(() => String, { nullable: true, description: describe(songItem, 'album') })
  album?: string | null;

  @Field(() => String, { nullable: true, description: describe(songItem, 'lyrics') })
  lyrics?: string | null;

  @Field(() => [String], { nullable: true, description: "Credited artist names, matched among the artists the caller reaches; other names become artist accounts on the caller's roster" })
  artists?: string[] | null;
}

@InputType('CatalogSongRefInput', { description: 'A song of a catalog' })
export class CatalogSongRefInput {
  @Field(() => ID, { description: describe(songRef, 'catalog_id') })
  catalogId!: string;

  @Field({ description: describe(songRef, 'isrc') })
  isrc!: string;
}

@InputType('CatalogLinkInput', { description: 'A catalog-account pair' })
export class CatalogLinkInput {
  @Field(() => ID, { description: describe(catalogLink, 'catalog_id') })
  catalogId!: string;

  @Field(() => ID, { description: describe(catalogLink, 'account_id') })
  accountId!: string;
}

/** The catalog in the graph (GraphQL only); every Catalog reached is one the caller may reach. */
@Directive('@key(fields: "id")')
@ObjectType('Catalog', { description: 'A catalog of songs, linked to one or more accounts' })
export class Catalog {
  @Field(() => ID, { description: 'The catalog id (UUID)' })
  id!: string;

  @Field({ description: 'The catalog name (1-200 characters)' })
  name!: string;

  @Field({ description: 'When the catalog was created', name: 'createdAt' })
  created_at!: Date;

  @Field({ description: 'When the catalog was last changed', name: 'updatedAt' })
  updated_at!: Date;
}

/**
 * A recording in the graph, identified by its ISRC; other subgraphs extend it. Its values are
 * those of one catalog entry the caller reaches (entry_id, not a field, finds its credits; a read
 * that already has them hands them over in `credits`).
 */
@Directive('@key(fields: "isrc")')
@ObjectType('Song', { description: "A recording, identified by its ISRC, as a catalog the caller reaches holds it (the most recently updated entry when several do)" })
export class Song {
  @Field({ description: 'The ISRC, canonical: 12 characters, upper case, no dashes' })
  isrc!: string;

  @Field({ description: 'Song name of this catalog entry' })
  name!: string;

  @Field(() => String, { description: 'Album of this catalog entry; null when none was given', nullable: true })
  album!: string | null;

  @Field(() => String, { description: 'Lyrics of this catalog entry; null when none were given', nullable: true })
  lyrics!: string | null;

  @Field({ description: 'When this catalog entry was last changed', name: 'updatedAt' })
  updated_at!: Date;

  @Field(() => ID, { name: 'catalogId', description: 'The catalog whose entry these values are' })
  catalog_id!: string;

  entry_id!: string;
  /** The entry's credits, when the read that produced the song had them. */
  credits?: SongCredit[];
}

@ObjectType('SongPage', { description: 'A page of songs' })
export class SongPage extends Page(Song) {}

@ObjectType('AccountCatalogPage', { description: "A page of an account's catalogs, by name (all of them by default)" })
export class AccountCatalogPage extends Page(Catalog, LIST_BOUNDS.catalogsPerAccount) {}

@ObjectType('CatalogPage', { description: 'A page of catalogs, by name' })
export class CatalogPage extends Page(Catalog) {}

/** Query.catalogSongs: a page of a catalog's songs. */
@InputType('CatalogSongsInput', { description: 'Which songs of a catalog, a page at a time' })
export class CatalogSongsQueryInput {
  @Field(() => ID, { description: describe(catalogSongsInput, 'catalog_id') })
  catalogId!: string;

  @Field(() => String, { nullable: true, description: describe(catalogSongsInput, 'artistName') })
  artistName?: string | null;

  @Field(() => Int, { nullable: true, description: describe(catalogSongsInput, 'page') })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: describe(catalogSongsInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: `${FIRST_DESCRIPTION} (GraphQL only)` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: `${AFTER_DESCRIPTION} (GraphQL only)` })
  after?: string | null;
}

@InputType('AddCatalogInput', { description: 'Create a catalog (a name) or link an existing one (a catalog id), to the caller or the account given' })
export class AddCatalogInputType {
  @Field(() => String, { nullable: true, description: describe(addCatalogInput, 'name') })
  name?: string | null;

  @Field(() => ID, { nullable: true, description: describe(addCatalogInput, 'catalog_id') })
  catalogId?: string | null;

  @Field(() => ID, { nullable: true, description: describe(addCatalogInput, 'account_id') })
  accountId?: string | null;
}

@InputType('AddCatalogSongsInput', { description: "Songs to upsert, each into its own catalog's entry for the ISRC" })
export class AddCatalogSongsInputType {
  @Field(() => [CatalogSongInput], { description: '1 to 500 songs' })
  songs!: CatalogSongInput[];
}

@InputType('RemoveCatalogSongsInput', { description: 'Songs to remove, each from one catalog' })
export class RemoveCatalogSongsInputType {
  @Field(() => [CatalogSongRefInput], { description: '1 to 500 songs' })
  songs!: CatalogSongRefInput[];
}

@InputType('RemoveCatalogsInput', { description: 'Catalog-account links to end' })
export class RemoveCatalogsInputType {
  @Field(() => [CatalogLinkInput], { description: '1 to 500 catalog-account pairs' })
  catalogs!: CatalogLinkInput[];
}

@ObjectType('CatalogAccount', { description: 'An account a catalog is linked to' })
export class CatalogAccount {
  @Field(() => ID, { description: 'The account id (UUID)' })
  id!: string;

  @Field({ description: 'Display name of the account' })
  name!: string;

  @Field(() => AccountKind, { description: 'Whether the account is a person, an artist or an organization' })
  kind!: AccountKind;
}

@ObjectType('CatalogAccountPage', { description: 'A page of the accounts a catalog is linked to, by name (all of them by default)' })
export class CatalogAccountPage extends Page(CatalogAccount, LIST_BOUNDS.accountsPerCatalog) {}
