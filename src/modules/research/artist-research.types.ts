import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { describe } from '../../common/validation';
import type { Artist } from '../artist';
import { linkArtistResearchInput } from './research.inputs';
import type { ResearchLinkRow } from './research.repository';

@ObjectType('ArtistResearchLink', { description: "How a roster artist is linked to the research provider's artist" })
export class ArtistResearchLink {
  @Field(() => String, { name: 'researchId', nullable: true, description: 'Research artist id; null when linked to none (cleared, or the search found nothing)' })
  research_id!: string | null;

  @Field({ description: '`explicit` (set by a client with updateArtist) or `search` (found once by name; correct it with updateArtist)' })
  match!: string;

  @Field({ description: 'When the link was made', name: 'matchedAt' })
  matched_at!: Date;
}

/** An artist with the research link stored for it, when the read that produced it has it (updateArtist: the link it wrote). */
export interface LinkedArtist extends Artist {
  stored_link?: ResearchLinkRow | null;
}

@InputType('UpdateArtistInput', { description: "Links an artist to the research provider's artist, or with a null research id to none" })
export class UpdateArtistInput {
  // research_id first: the order the REST edge has always checked them in (a 400 naming both names them so).
  @Field(() => String, { nullable: true, description: describe(linkArtistResearchInput, 'research_id') })
  researchId?: string | null;

  @Field(() => ID, { description: describe(linkArtistResearchInput, 'id') })
  id!: string;
}
