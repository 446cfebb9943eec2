import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireViewer } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { AppError, forbidden, notFound } from '../../common/errors';
import { validate } from '../../common/validation';
import type { Context } from '../../graphql/context';
import { Account } from '../account';
import { AgentTemplate, TemplateShare } from './agent-template.entity';
import {
  createTemplateInput,
  setFavoriteInput,
  templateId,
  templateIdInput,
  unique,
  updateTemplateInput,
} from './agent.inputs';
import { fetchVisibleTemplates } from './agent.loaders';
import type { AgentTemplateType } from './agent.types';

export interface TemplateFields {
  title?: string | null;
  description?: string | null;
  prompt?: string | null;
  tags?: string[] | null;
  is_private?: boolean | null;
  shared_emails?: string[] | null;
}

/**
 * Agent templates: the visible list, favourites, and the owner's create/edit/share/delete.
 * Who sees what is AccessPolicy.templateVisibility; a template the caller cannot see is a 404,
 * one it sees but does not own is a 403 for edits.
 */
export class AgentService {
  constructor(private readonly ctx: Context) {}

  private get adminOrgId(): string {
    return this.ctx.deps.config.auth.adminOrgId;
  }

  /** The caller's own templates, public ones and those shared with its e-mail, by title. */
  async list(): Promise<AgentTemplateType[]> {
    const viewer = requireViewer(this.ctx.viewer);
    return fetchVisibleTemplates(this.ctx.em, viewer, this.adminOrgId);
  }

  /** Federation: a template by id as the caller sees it; null when absent or not visible. */
  async byReference(id: unknown): Promise<AgentTemplateType | null> {
    const viewer = requireViewer(this.ctx.viewer);
    if (!templateId.safeParse(id).success) return null;
    return this.ctx.loaders.visibleTemplateById.load({ id: id as string, viewer, adminOrgId: this.adminOrgId });
  }

  /**
   * Sets the caller's favourite state. The template row is locked first, so concurrent calls on
   * one template run one after another and favorites_count is recounted from template_favourites;
   * the count answered is the one written in this transaction.
   */
  async setFavorite(id: string, isFavourite: boolean): Promise<{ favorites_count: number; is_favourite: boolean }> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(setFavoriteInput, { id, is_favourite: isFavourite });
    const visible = this.ctx.access.templateVisibility(viewer, 't');
    return this.ctx.em.transactional(async (tx) => {
      const locked = await tx.execute<{ id: string }[]>(
        `select t.id from agent_templates t where t.id = ? and ${visible.sql} for update of t`,
        [input.id, ...visible.bindings],
      );
      if (!locked.length) throw notFound('Agent template');
      if (input.is_favourite) {
        await tx.execute(
          `insert into template_favourites (id, template_id, account_id, created_at, updated_at)
           values (gen_random_uuid(), ?, ?, now(), now()) on conflict (template_id, account_id) do nothing`,
          [input.id, viewer.accountId],
        );
      } else {
        await tx.execute('delete from template_favourites where template_id = ? and account_id = ?', [input.id, viewer.accountId]);
      }
      const [row] = await tx.execute<{ favorites_count: number }[]>(
        `update agent_templates set favorites_count = (select count(*) from template_favourites where template_id = ?)
          where id = ? returning favorites_count`,
        [input.id, input.id],
      );
      return { favorites_count: Number(row.favorites_count), is_favourite: input.is_favourite };
    });
  }

  async create(fields: TemplateFields): Promise<AgentTemplateType> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(createTemplateInput, fields);
    const id = await this.withTitleCheck(input.title, (tx) => {
      const template = tx.create(AgentTemplate, {
        creator: tx.getReference(Account, viewer.accountId),
        title: input.title,
        description: input.description,
        prompt: input.prompt,
        tags: unique(input.tags ?? []),
        isPrivate: input.is_private ?? false,
      });
      for (const email of unique(input.shared_emails ?? [])) tx.create(TemplateShare, { template, email });
      return Promise.resolve(template.id);
    });
    return this.reload(viewer, id);
  }

  /** Changes the given fields; shared_emails, when given, replaces the list. Owner only. */
  async update(id: string, fields: TemplateFields): Promise<AgentTemplateType> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(updateTemplateInput, { id, ...fields });
    await this.withTitleCheck(input.title ?? undefined, async (tx) => {
      const template = await this.ownedTemplate(tx, viewer, input.id);
      if (input.title != null) template.title = input.title;
      if (input.description != null) template.description = input.description;
      if (input.prompt != null) template.prompt = input.prompt;
      if (input.tags != null) template.tags = unique(input.tags);
      if (input.is_private != null) template.isPrivate = input.is_private;
      if (input.shared_emails != null) {
        await tx.nativeDelete(TemplateShare, { template: template.id });
        for (const email of unique(input.shared_emails)) tx.create(TemplateShare, { template, email });
        // The share list is part of the template: a change of it alone still moves updated_at.
        template.updatedAt = new Date();
      }
      return template.id;
    });
    return this.reload(viewer, input.id);
  }

  /** Deletes the template with its shares and favourites. Owner only. */
  async remove(id: string): Promise<void> {
    const viewer = requireViewer(this.ctx.viewer);
    const input = validate(templateIdInput, { id });
    await this.ctx.em.transactional(async (tx) => {
      const template = await this.ownedTemplate(tx, viewer, input.id);
      await tx.nativeDelete(AgentTemplate, { id: template.id });
    });
  }

  /** The template for an edit: 404 when the caller cannot see it, 403 when it sees but does not own it. */
  private async ownedTemplate(tx: EntityManager, viewer: Viewer, id: string): Promise<AgentTemplate> {
    const template = await tx.findOne(AgentTemplate, { id });
    if (!template) throw notFound('Agent template');
    if (this.ctx.access.ownsTemplate(viewer, template.creator.id)) return template;
    const visible = this.ctx.access.templateVisibility(viewer, 't');
    const seen = await tx.execute(`select 1 from agent_templates t where t.id = ? and ${visible.sql}`, [id, ...visible.bindings]);
    if (!seen.length) throw notFound('Agent template');
    throw forbidden('Only the creator of a template may change or delete it');
  }

  /** Runs a write in one transaction; a clash on (creator, title) is a 409. */
  private async withTitleCheck<T>(title: string | undefined, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.ctx.em.transactional((tx) => work(tx as EntityManager));
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && /agent_templates_creator_title_unique/.test(error.message)) {
        throw new AppError('CONFLICT', `You already have a template titled "${title ?? ''}"`, {
          details: [{ field: 'title', message: 'is already used by another of your templates' }],
        });
      }
      throw error;
    }
  }

  private async reload(viewer: Viewer, id: string): Promise<AgentTemplateType> {
    const [template] = await fetchVisibleTemplates(this.ctx.em, viewer, this.adminOrgId, [id]);
    if (!template) throw notFound('Agent template');
    return template;
  }
}
