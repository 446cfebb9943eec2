import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { AFTER_DESCRIPTION, FIRST_DESCRIPTION } from '../../common/paging';
import { describe } from '../../common/validation';
import { Page } from '../../graphql/common.types';
import { createArtistInput, ROSTER_PAGE_DEFAULT, socialsByAccountInput, socialsByIdInput, upsertSocialInput } from './artist.inputs';

@ObjectType('SocialProfile', { description: 'A social-platform profile of an artist' })
export class SocialProfile {
  @Field(() => ID, { description: 'Id of the link between the artist and the profile' })
  id!: string;

  @Field(() => ID, { name: 'socialId', description: 'Id of the profile itself (shared by every artist linked to it)' })
  social_id!: string;

  @Field({ description: 'User name on the social platform' })
  username!: string;

  @Field({ description: 'URL of the profile (http or https); unique per artist', name: 'profileUrl' })
  profile_url!: string;

  @Field(() => String, { description: 'Avatar image URL; null when none was given', nullable: true })
  avatar!: string | null;

  @Field(() => String, { description: 'Profile text; null when none was given', nullable: true })
  bio!: string | null;

  @Field(() => Int, { description: 'Followers of the profile; null when unknown', name: 'followerCount', nullable: true })
  follower_count!: number | null;

  @Field(() => Int, { description: 'Accounts the profile follows; null when unknown', name: 'followingCount', nullable: true })
  following_count!: number | null;

  @Field(() => String, { description: 'Region of the profile; null when none was given', nullable: true })
  region!: string | null;

  @Field({ description: 'When the profile was last changed', name: 'updatedAt' })
  updated_at!: Date;

  /** When the link was made, in microseconds since the epoch (the list's sort key, for cursors); set by page reads. */
  linked_at?: string;
}

@ObjectType('SocialProfilePage', { description: 'A page of social profiles, oldest link first' })
export class SocialProfilePage extends Page(SocialProfile) {}

/**
 * An artist account in the graph: other subgraphs extend it by id. Its relation fields (socials
 * here, catalogs and songs in the catalog module) are empty for an artist the caller cannot
 * reach. `image` and `created_at` come with the artist when the read that produced it had them
 * (the roster, a new artist), else from its account (Artist.image, Artist.created_at).
 */
@Directive('@key(fields: "id")')
@ObjectType('Artist', { description: 'An artist account' })
export class Artist {
  @Field(() => ID, { description: 'The artist account id (UUID)' })
  id!: string;

  @Field({ description: 'The artist name as credited' })
  name!: string;

  image?: string | null;
  created_at?: Date;
}

@ObjectType('ArtistPage', { description: 'A page of artists, by name' })
export class ArtistPage extends Page(Artist, ROSTER_PAGE_DEFAULT) {}

/** An artist as the roster and a new artist read it: with its image and creation time. */
export type RosterArtist = Required<Artist>;

/*
 * The input types list their fields in the order the REST edge checks them, the order of the
 * operations' former arguments: a 400 naming several fields names them as it always has.
 */

/** Query.artistSocials: a page of an artist's socials, by the artist account. */
@InputType('ArtistSocialsInput', { description: "Which artist's social profiles, a page at a time" })
export class ArtistSocialsInput {
  @Field(() => Int, { nullable: true, description: describe(socialsByAccountInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(socialsByAccountInput, 'page') })
  page?: number | null;

  @Field(() => ID, { description: describe(socialsByAccountInput, 'artist_account_id') })
  artistAccountId!: string;

  @Field(() => Int, { nullable: true, description: `${FIRST_DESCRIPTION} (GraphQL only)` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: `${AFTER_DESCRIPTION} (GraphQL only)` })
  after?: string | null;
}

/** Query.artistSocialsById: the same page, the artist named `id`. */
@InputType('ArtistSocialsByIdInput', { description: "Which artist's social profiles, a page at a time" })
export class ArtistSocialsByIdInput {
  @Field(() => Int, { nullable: true, description: describe(socialsByIdInput, 'limit') })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: describe(socialsByIdInput, 'page') })
  page?: number | null;

  @Field(() => ID, { description: describe(socialsByIdInput, 'id') })
  id!: string;
  @Field(() => Int, { nullable: true, description: `${FIRST_DESCRIPTION} (GraphQL only)` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: `${AFTER_DESCRIPTION} (GraphQL only)` })
  after?: string | null;
}

@InputType('CreateArtistInput', { description: "A new artist account, on the caller's roster or on an organization's" })
export class CreateArtistInputType {
  @Field(() => ID, { nullable: true, description: describe(createArtistInput, 'organization_id') })
  organizationId?: string | null;

  @Field(() => String, { description: describe(createArtistInput, 'name') })
  name!: string;
}

@InputType('UpsertArtistSocialInput', { description: "A social profile of an artist: the artist's profile with the same profile URL is updated" })
export class UpsertArtistSocialInputType {
  @Field(() => String, { nullable: true, description: describe(upsertSocialInput, 'region') })
  region?: string | null;

  @Field(() => Int, { nullable: true, description: describe(upsertSocialInput, 'following_count') })
  followingCount?: number | null;

  @Field(() => Int, { nullable: true, description: describe(upsertSocialInput, 'follower_count') })
  followerCount?: number | null;

  @Field(() => String, { nullable: true, description: describe(upsertSocialInput, 'bio') })
  bio?: string | null;

  @Field(() => String, { nullable: true, description: describe(upsertSocialInput, 'avatar') })
  avatar?: string | null;

  @Field(() => String, { description: describe(upsertSocialInput, 'username') })
  username!: string;

  @Field(() => String, { description: describe(upsertSocialInput, 'profile_url') })
  profileUrl!: string;

  @Field(() => ID, { description: describe(upsertSocialInput, 'id') })
  id!: string;
}
