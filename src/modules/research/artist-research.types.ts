import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { SuccessStatus } from '../../graphql/common.types';

@ObjectType('ArtistResearchLink', { description: "How a roster artist is linked to the research provider's artist" })
export class ArtistResearchLink {
  @Field(() => String, { nullable: true, description: 'Research artist id; null when linked to none (cleared, or the search found nothing)' })
  research_id!: string | null;

  @Field({ description: '`explicit` (set by a client) or `search` (found once by name; correct it with PATCH /api/artists/{id})' })
  match!: string;

  @Field()
  matched_at!: Date;
}

@ObjectType('ArtistResearchRecord', { description: 'An artist with its research link (REST item)' })
export class ArtistResearchRecord {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  research_id!: string | null;

  @Field(() => String, { nullable: true, description: '`explicit` or `search`; null when never linked' })
  research_match!: string | null;

  @Field(() => Date, { nullable: true })
  research_matched_at!: Date | null;
}

@ObjectType({ description: 'Answer of PATCH /api/artists/{id}' })
export class ArtistResearchResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => ArtistResearchRecord)
  artist!: ArtistResearchRecord;
}

@InputType('LinkArtistResearchInput', { description: "Links a roster artist to the research provider's artist" })
export class LinkArtistResearchInput {
  @Field(() => ID)
  artist_id!: string;

  @Field(() => String, { nullable: true, description: 'Research artist id (digits); null clears the link (and no search replaces it)' })
  research_id?: string | null;
}
