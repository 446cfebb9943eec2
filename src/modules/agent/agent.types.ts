import { Directive, Extensions, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { maxItems } from '../../common/bounds';
import { Page } from '../../graphql/common.types';
import { describe } from '../../common/validation';
import { createTemplateInput, setFavoriteInput, SHARED_EMAILS_MAX, TAGS_MAX, templateIdInput, TEMPLATES_PAGE_MAX, updateTemplateInput } from './agent.inputs';

@ObjectType('TemplateCreator', { description: 'The account that created an agent template' })
export class TemplateCreator {
  @Field(() => ID, { description: 'The creator account id (UUID)' })
  id!: string;

  @Field({ description: 'Display name of the creator' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Image URL of the account, if it has one' })
  image!: string | null;

  @Field({ name: 'isAdmin', description: 'Member of the internal admin organization' })
  is_admin!: boolean;
}

@Directive('@key(fields: "id")')
@ObjectType('AgentTemplate', { description: 'An agent prompt template, as seen by the authenticated account' })
export class AgentTemplateType {
  @Field(() => ID, { description: 'The template id (UUID)' })
  id!: string;

  @Field({ description: 'Title, unique among the templates of its creator (1-120 characters)' })
  title!: string;

  @Field({ description: 'What the template is for (1-2000 characters)' })
  description!: string;

  @Field({ description: 'The prompt text (1-20000 characters)' })
  prompt!: string;

  @Extensions(maxItems(TAGS_MAX))
  @Field(() => [String], { description: 'Tags of the template (at most 20, without duplicates)' })
  tags!: string[];

  @Field(() => TemplateCreator, { description: 'The account that created (and owns) the template' })
  creator!: TemplateCreator;

  @Field({ name: 'isPrivate', description: 'Seen only by its owner and the shared addresses' })
  is_private!: boolean;

  @Field({ name: 'isFavourite', description: 'Favorite state for the authenticated account' })
  is_favourite!: boolean;

  @Field(() => Int, { name: 'favoritesCount', description: 'Number of accounts that favourited the template' })
  favorites_count!: number;

  @Extensions(maxItems(SHARED_EMAILS_MAX))
  @Field(() => [String], { name: 'sharedEmails', description: 'Addresses the template is shared with; empty unless the caller owns it' })
  shared_emails!: string[];

  @Field({ description: 'When the template was created', name: 'createdAt' })
  created_at!: Date;

  @Field({ description: 'When the template was last changed', name: 'updatedAt' })
  updated_at!: Date;
}

@ObjectType('AgentTemplatePage', { description: 'A page of the agent templates the caller sees, by title' })
export class AgentTemplatePage extends Page(AgentTemplateType, TEMPLATES_PAGE_MAX) {}

@InputType('CreateAgentTemplateInput', { description: 'A new template, owned by the caller' })
export class CreateAgentTemplateInput {
  @Field(() => String, { description: describe(createTemplateInput, 'title') })
  title!: string;

  @Field(() => String, { description: describe(createTemplateInput, 'description') })
  description!: string;

  @Field(() => String, { description: describe(createTemplateInput, 'prompt') })
  prompt!: string;

  @Field(() => [String], { nullable: true, description: describe(createTemplateInput, 'tags') })
  tags?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: describe(createTemplateInput, 'is_private') })
  isPrivate?: boolean | null;

  @Field(() => [String], { nullable: true, description: describe(createTemplateInput, 'shared_emails') })
  sharedEmails?: string[] | null;
}

@InputType('UpdateAgentTemplateInput', { description: 'The fields of a template to change; those not given stay as they are' })
export class UpdateAgentTemplateInput {
  @Field(() => ID, { description: describe(updateTemplateInput, 'id') })
  id!: string;

  @Field(() => String, { nullable: true, description: describe(updateTemplateInput, 'title') })
  title?: string | null;

  @Field(() => String, { nullable: true, description: describe(updateTemplateInput, 'description') })
  description?: string | null;

  @Field(() => String, { nullable: true, description: describe(updateTemplateInput, 'prompt') })
  prompt?: string | null;

  @Field(() => [String], { nullable: true, description: describe(updateTemplateInput, 'tags') })
  tags?: string[] | null;

  @Field(() => Boolean, { nullable: true, description: describe(updateTemplateInput, 'is_private') })
  isPrivate?: boolean | null;

  @Field(() => [String], { nullable: true, description: describe(updateTemplateInput, 'shared_emails') })
  sharedEmails?: string[] | null;
}

@InputType('SetAgentTemplateFavoriteInput', { description: "The caller's favorite state of a template it can see" })
export class SetAgentTemplateFavoriteInput {
  @Field(() => ID, { description: describe(setFavoriteInput, 'id') })
  id!: string;

  @Field(() => Boolean, { description: describe(setFavoriteInput, 'is_favourite') })
  isFavourite!: boolean;
}

@InputType('DeleteAgentTemplateInput', { description: 'A template of the caller to delete' })
export class DeleteAgentTemplateInput {
  @Field(() => ID, { description: describe(templateIdInput, 'id') })
  id!: string;
}
