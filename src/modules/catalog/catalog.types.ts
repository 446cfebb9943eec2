import { LIST_BOUNDS } from '../../common/bounds';
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Page } from '../../graphql/common.types';
import { describe } from '../../common/validation';
import { AccountKind } from '../account';
import { AFTER_DESCRIPTION, FIRST_DESCRIPTION } from '../../common/paging';
import { addCatalogInput, catalogSongsInput } from './catalog.inputs';

@ObjectType('SongCredit', { description: 'An artist credited on a song' })
export class SongCredit {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => Int, { description: 'When the artist was credited, in epoch seconds' })
  timestamp!: number;
}

@InputType('CatalogSongInput', { description: "A song to add to a catalog: upserts that catalog's entry for the ISRC, never another catalog's" })
export class CatalogSongInput {
  @Field(() => ID)
  catalog_id!: string;

  @Field()
  isrc!: string;

  @Field(() => String, { nullable: true, description: 'Required when the catalog has no entry for the ISRC yet' })
  name?: string | null;

  @Field(() => String, { nullable: true })
  album?: string | null;

  @Field(() => String, { nullable: true })
  lyrics?: string | null;

  @Field(() => [String], { nullable: true, description: "Credited artist names, matched among the artists the caller reaches; other names become artist accounts on the caller's roster" })
  artists?: string[] | null;
}

@InputType('CatalogSongRefInput', { description: 'A song of a catalog' })
export class CatalogSongRefInput {
  @Field(() => ID)
  catalog_id!: string;

  @Field()
  isrc!: string;
}

@InputType('CatalogLinkInput', { description: 'A catalog-account pair' })
export class CatalogLinkInput {
  @Field(() => ID)
  catalog_id!: string;

  @Field(() => ID)
  account_id!: string;
}

/** The catalog in the graph (GraphQL only); every Catalog reached is one the caller may reach. */
@Directive('@key(fields: "id")')
@ObjectType('Catalog', { description: 'A catalog of songs, linked to one or more accounts' })
export class Catalog {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  created_at!: Date;

  @Field()
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
  @Field()
  isrc!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  album!: string | null;

  @Field(() => String, { nullable: true })
  lyrics!: string | null;

  @Field()
  updated_at!: Date;

  @Field(() => ID, { description: 'The catalog whose entry these values are' })
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
  catalog_id!: string;

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

@InputType('AddCatalogInput', { description: 'Create a catalog ({name}) or link an existing one ({catalog_id}), to the caller or account_id' })
export class AddCatalogInputType {
  @Field(() => String, { nullable: true, description: describe(addCatalogInput, 'name') })
  name?: string | null;

  @Field(() => ID, { nullable: true, description: describe(addCatalogInput, 'catalog_id') })
  catalog_id?: string | null;

  @Field(() => ID, { nullable: true, description: describe(addCatalogInput, 'account_id') })
  account_id?: string | null;
}

@InputType('AddCatalogSongsInput')
export class AddCatalogSongsInputType {
  @Field(() => [CatalogSongInput], { description: '1 to 500 songs' })
  songs!: CatalogSongInput[];
}

@InputType('RemoveCatalogSongsInput')
export class RemoveCatalogSongsInputType {
  @Field(() => [CatalogSongRefInput], { description: '1 to 500 songs' })
  songs!: CatalogSongRefInput[];
}

@InputType('RemoveCatalogsInput')
export class RemoveCatalogsInputType {
  @Field(() => [CatalogLinkInput], { description: '1 to 500 catalog-account pairs' })
  catalogs!: CatalogLinkInput[];
}

@ObjectType('CatalogAccount', { description: 'An account a catalog is linked to' })
export class CatalogAccount {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => AccountKind)
  kind!: AccountKind;
}

@ObjectType('CatalogAccountPage', { description: 'A page of the accounts a catalog is linked to, by name (all of them by default)' })
export class CatalogAccountPage extends Page(CatalogAccount, LIST_BOUNDS.accountsPerCatalog) {}
