import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { Account } from '../account';

@Entity({ tableName: 'agent_templates' })
@Unique({ name: 'agent_templates_creator_title_unique', properties: ['creator', 'title'] })
export class AgentTemplate extends BaseEntity<'tags' | 'isPrivate' | 'favoritesCount'> {
  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  creator!: Account;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  description!: string;

  @Property({ type: 'text' })
  prompt!: string;

  @Property({ type: 'text[]' })
  tags: string[] = [];

  @Property({ type: 'boolean' })
  @Index({ name: 'agent_templates_public_idx', expression: 'create index "agent_templates_public_idx" on "agent_templates" ("title") where "is_private" = false' })
  isPrivate = false;

  /** Kept equal to the number of rows in template_favourites (updated in the same transaction). */
  @Property({ type: 'integer' })
  favoritesCount = 0;
}

/** A template shared with an e-mail address (stored lower-cased). */
@Entity({ tableName: 'template_shares' })
@Unique({ name: 'template_shares_template_email_unique', properties: ['template', 'email'] })
export class TemplateShare extends BaseEntity {
  @ManyToOne(() => AgentTemplate, { deleteRule: 'cascade' })
  template!: AgentTemplate;

  @Property({ type: 'text' })
  @Index({ name: 'template_shares_email_idx' })
  email!: string;
}

@Entity({ tableName: 'template_favourites' })
@Unique({ name: 'template_favourites_template_account_unique', properties: ['template', 'account'] })
export class TemplateFavourite extends BaseEntity {
  @ManyToOne(() => AgentTemplate, { deleteRule: 'cascade' })
  template!: AgentTemplate;

  @ManyToOne(() => Account, { deleteRule: 'cascade' })
  @Index({ name: 'template_favourites_account_idx' })
  account!: Account;
}
