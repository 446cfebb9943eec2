import type { Position } from '../../common/paging';
import { skippedSql } from '../../db/pages';
import { TEMPLATES_PAGE_MAX } from './agent.inputs';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SqlCondition } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { pgArray } from '../../db/sql';
import { Account } from '../account';
import { AgentTemplate, TemplateShare } from './agent-template.entity';
import type { AgentTemplateType } from './agent.types';
import type { Db } from '../../db/request-db';

/**
 * Agent templates (decisions §6): a viewer sees its own, the public ones, and those shared with
 * its e-mail address. Organization membership and the admin organization add nothing: a private
 * template stays private. A SQL condition on the template table aliased `alias`.
 */
export function templateVisibility(viewer: Viewer, alias = 't'): SqlCondition {
  return {
    sql: `(${alias}.creator_id = ? or ${alias}.is_private = false
           or exists (select 1 from template_shares ts where ts.template_id = ${alias}.id and ts.email = ?))`,
    bindings: [viewer.accountId, viewer.email?.toLowerCase() ?? null],
  };
}

/** The write broke the one-title-per-creator rule (agent_templates_creator_title_unique). */
export function isTitleClash(error: unknown): boolean {
  return error instanceof UniqueConstraintViolationException && /agent_templates_creator_title_unique/.test(error.message);
}

/** The stored fields of a new template (already parsed and de-duplicated). */
export interface NewTemplate {
  title: string;
  description: string;
  prompt: string;
  tags: string[];
  isPrivate: boolean;
  sharedEmails: string[];
}

/** A page of the templates the viewer sees. */
export interface TemplatesPage {
  total: number;
  skipped: number;
  templates: AgentTemplateType[];
}

interface TemplateRow {
  id: string;
  title: string;
  description: string;
  prompt: string;
  tags: string[];
  is_private: boolean;
  favorites_count: number;
  created_at: Date;
  updated_at: Date;
  creator_id: string;
  creator_name: string;
  creator_image: string | null;
  creator_is_admin: boolean;
  is_favourite: boolean;
  shared_emails: string[];
}

function toTemplate(r: TemplateRow): AgentTemplateType {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    prompt: r.prompt,
    tags: r.tags ?? [],
    creator: { id: r.creator_id, name: r.creator_name, image: r.creator_image, is_admin: r.creator_is_admin },
    is_private: r.is_private,
    is_favourite: r.is_favourite,
    favorites_count: Number(r.favorites_count),
    shared_emails: r.shared_emails ?? [],
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  };
}

/** The repository's public shape: what AgentService works with, and what a test fake implements. */
export type AgentStore = Omit<AgentRepository, 'transaction'> & {
  transaction<T>(work: (repo: AgentStore) => Promise<T>): Promise<T>;
};

/**
 * Every read and write of agent templates, their shares and favourites. Reads compose the
 * visibility predicate, so a template the viewer may not see is absent from the same statement.
 */
export class AgentRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction, on a repository bound to it. */
  transaction<T>(work: (repo: AgentRepository) => Promise<T>): Promise<T> {
    return this.db.transactional((tx) => work(new AgentRepository(tx)));
  }

  /**
   * Templates visible to the viewer, with creator, favourite state and (for the owner) shared
   * addresses, in ONE statement whatever the number of rows; `ids` narrows it to those templates.
   */
  async visibleTemplates(viewer: Viewer, adminOrgId: string, ids?: readonly string[], page = { offset: 0, limit: TEMPLATES_PAGE_MAX }): Promise<AgentTemplateType[]> {
    const visible = templateVisibility(viewer, 't');
    const rows = await this.db.em.execute<TemplateRow[]>(
      `select t.id, t.title, t.description, t.prompt, t.tags, t.is_private, t.favorites_count, t.created_at, t.updated_at,
              c.id as creator_id, c.name as creator_name, c.image as creator_image,
              (c.id = ? or exists (select 1 from memberships m where m.member_id = c.id and m.organization_id = ?)) as creator_is_admin,
              exists (select 1 from template_favourites f where f.template_id = t.id and f.account_id = ?) as is_favourite,
              case when t.creator_id = ?
                   then coalesce((select array_agg(s.email order by s.email) from template_shares s where s.template_id = t.id), '{}')
                   else '{}' end as shared_emails
         from agent_templates t join accounts c on c.id = t.creator_id
        where ${visible.sql} ${ids ? 'and t.id = any(?::uuid[])' : ''}
        order by t.title, t.id offset ? limit ?`,
      [adminOrgId, adminOrgId, viewer.accountId, viewer.accountId, ...visible.bindings, ...(ids ? [pgArray(ids)] : []), page.offset, page.limit],
    );
    return rows.map(toTemplate);
  }

  /**
   * A page of the templates visible to the viewer, by title then id, as visibleTemplates answers
   * them, with the total visible and the templates before the page, in ONE statement. After a
   * cursor, the page starts after the templates at or before its (title, id).
   */
  async visibleTemplatesPage(viewer: Viewer, adminOrgId: string, position: Position<readonly string[]>, limit: number): Promise<TemplatesPage> {
    const visible = templateVisibility(viewer, 't');
    const skip = skippedSql(position, ([title, id]) => ({ sql: '(select count(*)::int from visible where (title, id) <= (?, ?::uuid))', bindings: [title, id] }));
    const rows = await this.db.em.execute<(TemplateRow & { total: number; skipped: number })[]>(
      `with visible as (select t.id, t.title from agent_templates t where ${visible.sql}),
       skip as (select ${skip.sql} as n),
       page as (select v.id from visible v order by v.title, v.id offset (select n from skip) limit ?)
       select tot.total, tot.skipped,
              t.id, t.title, t.description, t.prompt, t.tags, t.is_private, t.favorites_count, t.created_at, t.updated_at,
              c.id as creator_id, c.name as creator_name, c.image as creator_image,
              (c.id = ? or exists (select 1 from memberships m where m.member_id = c.id and m.organization_id = ?)) as creator_is_admin,
              exists (select 1 from template_favourites f where f.template_id = t.id and f.account_id = ?) as is_favourite,
              case when t.creator_id = ?
                   then coalesce((select array_agg(s.email order by s.email) from template_shares s where s.template_id = t.id), '{}')
                   else '{}' end as shared_emails
         from (select (select count(*)::int from visible) as total, (select n from skip) as skipped) tot
         left join (page join agent_templates t on t.id = page.id join accounts c on c.id = t.creator_id) on true
        order by t.title, t.id`,
      [...visible.bindings, ...skip.bindings, limit, adminOrgId, adminOrgId, viewer.accountId, viewer.accountId],
    );
    return { total: rows[0]!.total, skipped: rows[0]!.skipped, templates: rows.filter((row) => row.id !== null).map(toTemplate) };
  }

  /** Whether the viewer sees the template (false also when it does not exist). */
  async isVisible(viewer: Viewer, id: string): Promise<boolean> {
    const visible = templateVisibility(viewer, 't');
    const seen = await this.db.em.execute(`select 1 from agent_templates t where t.id = ? and ${visible.sql}`, [id, ...visible.bindings]);
    return seen.length > 0;
  }

  /** Locks the template row until the transaction ends, when the viewer sees it; false otherwise. */
  async lockVisible(viewer: Viewer, id: string): Promise<boolean> {
    const visible = templateVisibility(viewer, 't');
    const locked = await this.db.em.execute<{ id: string }[]>(
      `select t.id from agent_templates t where t.id = ? and ${visible.sql} for update of t`,
      [id, ...visible.bindings],
    );
    return locked.length > 0;
  }

  async addFavourite(templateId: string, accountId: string): Promise<void> {
    await this.db.em.execute(
      `insert into template_favourites (id, template_id, account_id, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, now(), now()) on conflict (template_id, account_id) do nothing`,
      [templateId, accountId],
    );
  }

  async removeFavourite(templateId: string, accountId: string): Promise<void> {
    await this.db.em.execute('delete from template_favourites where template_id = ? and account_id = ?', [templateId, accountId]);
  }

  /** Recounts favorites_count from template_favourites and answers the count written. */
  async recountFavourites(templateId: string): Promise<number> {
    const [row] = await this.db.em.execute<{ favorites_count: number }[]>(
      `update agent_templates set favorites_count = (select count(*) from template_favourites where template_id = ?)
        where id = ? returning favorites_count`,
      [templateId, templateId],
    );
    return Number(row.favorites_count);
  }

  /** Adds a template of `creatorId` with its shares to the unit of work; answers its id. */
  createTemplate(creatorId: string, fields: NewTemplate): string {
    const template = this.db.em.create(AgentTemplate, {
      creator: this.db.em.getReference(Account, creatorId),
      title: fields.title,
      description: fields.description,
      prompt: fields.prompt,
      tags: fields.tags,
      isPrivate: fields.isPrivate,
    });
    for (const email of fields.sharedEmails) this.db.em.create(TemplateShare, { template, email });
    return template.id;
  }

  /** The template when `accountId` created it; null when it does not exist or is another account's. */
  ownedTemplate(accountId: string, id: string): Promise<AgentTemplate | null> {
    return this.db.em.findOne(AgentTemplate, { id, creator: accountId });
  }

  /** Replaces the addresses the template is shared with. */
  async replaceShares(template: AgentTemplate, emails: readonly string[]): Promise<void> {
    await this.db.em.nativeDelete(TemplateShare, { template: template.id });
    for (const email of emails) this.db.em.create(TemplateShare, { template, email });
  }

  /** Deletes the template (shares and favourites cascade) when `accountId` created it; false otherwise. */
  async deleteOwned(accountId: string, id: string): Promise<boolean> {
    return (await this.db.em.nativeDelete(AgentTemplate, { id, creator: accountId })) > 0;
  }
}
