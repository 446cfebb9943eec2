import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { Pagination, SuccessStatus } from '../../graphql/common.types';

@ObjectType('SocialProfile', { description: 'A social-platform profile of an artist' })
export class SocialProfile {
  @Field(() => ID, { description: 'Id of the link between the artist and the profile' })
  id!: string;

  @Field(() => ID, { description: 'Id of the profile itself (shared by every artist linked to it)' })
  social_id!: string;

  @Field()
  username!: string;

  @Field()
  profile_url!: string;

  @Field(() => String, { nullable: true })
  avatar!: string | null;

  @Field(() => String, { nullable: true })
  bio!: string | null;

  @Field(() => Int, { nullable: true })
  follower_count!: number | null;

  @Field(() => Int, { nullable: true })
  following_count!: number | null;

  @Field(() => String, { nullable: true })
  region!: string | null;

  @Field()
  updated_at!: Date;
}

@ObjectType({ description: 'Answer of GET /api/artist/socials and GET /api/artists/{id}/socials' })
export class SocialsResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [SocialProfile], { description: 'Oldest link first' })
  socials!: SocialProfile[];

  @Field(() => Pagination)
  pagination!: Pagination;
}

@ObjectType({ description: 'Answer of POST /api/artists/{id}/socials' })
export class SocialResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => SocialProfile)
  social!: SocialProfile;
}

@ObjectType('RosterArtist', { description: 'An artist account on a roster' })
export class RosterArtist {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  image!: string | null;

  @Field()
  created_at!: Date;
}

@ObjectType({ description: 'Answer of GET /api/artists' })
export class ArtistsResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [RosterArtist], { description: 'By name' })
  artists!: RosterArtist[];
}

@ObjectType({ description: 'Answer of POST /api/artists' })
export class ArtistResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => RosterArtist)
  artist!: RosterArtist;
}

/**
 * The artist in the graph (GraphQL only): other subgraphs extend it by id. Its relation fields
 * (socials here, catalogs and songs in the catalog module) are empty for an artist the caller
 * cannot reach.
 */
@Directive('@key(fields: "id")')
@ObjectType('Artist', { description: 'An artist account' })
export class Artist {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;
}
