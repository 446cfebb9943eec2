import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Pagination, ResultStatus } from '../../graphql/common.types';
import { AccountKind } from '../account';

@ObjectType('CatalogRecord', { description: 'A catalog (REST item)' })
export class CatalogRecord {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  created_at!: Date;

  @Field()
  updated_at!: Date;
}

@ObjectType({ description: 'Answer of GET /api/catalogs and DELETE /api/catalogs' })
export class CatalogsResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [CatalogRecord], { description: 'By name' })
  catalogs!: CatalogRecord[];
}

@ObjectType({ description: 'Answer of POST /api/catalogs' })
export class CatalogResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => CatalogRecord)
  catalog!: CatalogRecord;
}

@ObjectType('SongCredit', { description: 'An artist credited on a song' })
export class SongCredit {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => Int, { description: 'When the artist was credited, in epoch seconds' })
  timestamp!: number;
}

/** The fields of a recording, shared by the REST item and the graph's Song (kept as two types: sofa trap). */
@ObjectType()
abstract class SongFields {
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
}

@ObjectType('CatalogSong', { description: 'A song in a catalog (REST item)' })
export class CatalogSongRecord extends SongFields {
  @Field(() => ID)
  catalog_id!: string;

  @Field(() => [SongCredit])
  artists!: SongCredit[];
}

@ObjectType({ description: 'Answer of GET /api/catalogs/songs' })
export class CatalogSongsResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [CatalogSongRecord], { description: 'By ISRC' })
  songs!: CatalogSongRecord[];

  @Field(() => Pagination)
  pagination!: Pagination;
}

@ObjectType({ description: 'Answer of POST and DELETE /api/catalogs/songs' })
export class CatalogSongsChangeResult {
  @Field(() => ResultStatus)
  status!: ResultStatus;

  @Field(() => [CatalogSongRecord], { description: 'POST: the songs posted; DELETE: the songs left in each affected catalog' })
  songs!: CatalogSongRecord[];
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
 * those of one catalog entry the caller reaches (entry_id, not a field, finds its credits).
 */
@Directive('@key(fields: "isrc")')
@ObjectType('Song', { description: "A recording, identified by its ISRC, as a catalog the caller reaches holds it (the most recently updated entry when several do)" })
export class Song extends SongFields {
  entry_id!: string;
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
