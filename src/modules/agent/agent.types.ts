import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { SuccessStatus } from '../../graphql/common.types';

@ObjectType('TemplateCreator', { description: 'The account that created an agent template' })
export class TemplateCreator {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true, description: 'Image URL of the account, if it has one' })
  image!: string | null;

  @Field({ description: 'Member of the internal admin organization' })
  is_admin!: boolean;
}

@Directive('@key(fields: "id")')
@ObjectType('AgentTemplate', { description: 'An agent prompt template, as seen by the authenticated account' })
export class AgentTemplateType {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  description!: string;

  @Field()
  prompt!: string;

  @Field(() => [String])
  tags!: string[];

  @Field(() => TemplateCreator)
  creator!: TemplateCreator;

  @Field({ description: 'Seen only by its owner and the shared addresses' })
  is_private!: boolean;

  @Field({ description: 'Favorite state for the authenticated account' })
  is_favourite!: boolean;

  @Field(() => Int, { description: 'Number of accounts that favourited the template' })
  favorites_count!: number;

  @Field(() => [String], { description: 'Addresses the template is shared with; empty unless the caller owns it' })
  shared_emails!: string[];

  @Field()
  created_at!: Date;

  @Field()
  updated_at!: Date;
}

@ObjectType({ description: 'Answer of GET /api/agents/templates' })
export class AgentTemplatesResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => [AgentTemplateType], { description: "The caller's own templates, public ones, and those shared with its e-mail; by title" })
  templates!: AgentTemplateType[];
}

@ObjectType({ description: 'Answer of POST and PATCH /api/agents/templates' })
export class AgentTemplateResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => AgentTemplateType)
  template!: AgentTemplateType;
}

@ObjectType({ description: 'Answer of PUT /api/agents/templates/{id}/favorite and DELETE /api/agents/templates/{id}' })
export class AgentTemplateStatusResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;
}

@ObjectType({ description: 'Answer of PUT /api/agents/templates/{id}/favorite: the state just written' })
export class AgentTemplateFavoriteResult {
  @Field(() => SuccessStatus)
  status!: SuccessStatus;

  @Field(() => Int, { description: 'Number of accounts that favourite the template, after this write' })
  favorites_count!: number;

  @Field({ description: 'Favorite state for the authenticated account, after this write' })
  is_favourite!: boolean;
}
