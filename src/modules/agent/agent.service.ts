import { cursorOf, PageRequest, positionOf, sortKeys } from '../../common/paging';
import { PageOf, pageOf } from '../../graphql/common.types';
import type { Viewer } from '../../auth/viewer';
import { AppError, forbidden, notFound } from '../../common/errors';
import { unique, type CreateTemplateInput, type SetFavoriteInput, type TemplateIdInput, type UpdateTemplateInput } from './agent.inputs';
import type { AgentLoaders } from './agent.loaders';
import { type AgentStore, isTitleClash } from './agent.repository';
import type { AgentTemplateType } from './agent.types';

/**
 * Agent templates: the visible list, favourites, and the owner's create/edit/share/delete.
 * Who sees what is the repository's visibility predicate; a template the caller cannot see is a
 * 404, one it sees but did not create is a 403 for edits (only the creator edits, shares or deletes).
 */
/** The list name of the templates a caller sees in cursors (its scope is the caller); by title, then id. */
const TEMPLATES = 'Query.agentTemplates';

export class AgentService {
  constructor(
    private readonly repo: AgentStore,
    private readonly loaders: Pick<AgentLoaders, 'visibleTemplateById'>,
    private readonly settings: { adminOrgId: string },
  ) {}

  /** The caller's own templates, public ones and those shared with its e-mail, by title. */
  async list(viewer: Viewer, request: PageRequest): Promise<PageOf<AgentTemplateType>> {
    const position = positionOf(request, TEMPLATES, viewer.accountId, sortKeys.nameThenUuid);
    const page = await this.repo.visibleTemplatesPage(viewer, this.settings.adminOrgId, position, request.limit);
    return pageOf(page.templates, { total: page.total, skipped: page.skipped, limit: request.limit }, (template) => cursorOf(TEMPLATES, viewer.accountId, [template.title, template.id]));
  }

  /** Federation: a template by id as the caller sees it; null when absent or not visible. */
  byReference(viewer: Viewer, input: TemplateIdInput): Promise<AgentTemplateType | null> {
    return this.loaders.visibleTemplateById.load({ id: input.id, viewer, adminOrgId: this.settings.adminOrgId });
  }

  /**
   * Sets the caller's favourite state and answers the template as the caller now sees it. The
   * template row is locked first, so concurrent calls on one template run one after another and
   * favorites_count is recounted from template_favourites; the template answered is read in the
   * same transaction, so its count is the one written.
   */
  setFavorite(viewer: Viewer, input: SetFavoriteInput): Promise<AgentTemplateType> {
    return this.repo.transaction(async (repo) => {
      if (!(await repo.lockVisible(viewer, input.id))) throw notFound('Agent template');
      if (input.is_favourite) await repo.addFavourite(input.id, viewer.accountId);
      else await repo.removeFavourite(input.id, viewer.accountId);
      await repo.recountFavourites(input.id);
      return this.reload(viewer, input.id, repo);
    });
  }

  async create(viewer: Viewer, input: CreateTemplateInput): Promise<AgentTemplateType> {
    const id = await this.withTitleCheck(input.title, (repo) =>
      Promise.resolve(
        repo.createTemplate(viewer.accountId, {
          title: input.title,
          description: input.description,
          prompt: input.prompt,
          tags: unique(input.tags ?? []),
          isPrivate: input.is_private ?? false,
          sharedEmails: unique(input.shared_emails ?? []),
        }),
      ),
    );
    return this.reload(viewer, id);
  }

  /** Changes the given fields; shared_emails, when given, replaces the list. Owner only. */
  async update(viewer: Viewer, input: UpdateTemplateInput): Promise<AgentTemplateType> {
    await this.withTitleCheck(input.title ?? undefined, async (repo) => {
      const template = await repo.ownedTemplate(viewer.accountId, input.id);
      if (!template) throw await this.refusal(repo, viewer, input.id);
      if (input.title != null) template.title = input.title;
      if (input.description != null) template.description = input.description;
      if (input.prompt != null) template.prompt = input.prompt;
      if (input.tags != null) template.tags = unique(input.tags);
      if (input.is_private != null) template.isPrivate = input.is_private;
      if (input.shared_emails != null) {
        await repo.replaceShares(template, unique(input.shared_emails));
        // The share list is part of the template: a change of it alone still moves updated_at.
        template.updatedAt = new Date();
      }
    });
    return this.reload(viewer, input.id);
  }

  /** Deletes the template with its shares and favourites. Owner only. */
  async remove(viewer: Viewer, input: TemplateIdInput): Promise<void> {
    if (!(await this.repo.deleteOwned(viewer.accountId, input.id))) throw await this.refusal(this.repo, viewer, input.id);
  }

  /** Why an edit found no template of the caller: 404 when it cannot see it, 403 when it sees another's. */
  private async refusal(repo: Pick<AgentStore, 'isVisible'>, viewer: Viewer, id: string): Promise<AppError> {
    if (!(await repo.isVisible(viewer, id))) return notFound('Agent template');
    return forbidden('Only the creator of a template may change or delete it');
  }

  /** Runs a write in one transaction; a clash on (creator, title) is a 409. */
  private async withTitleCheck<T>(title: string | undefined, work: (repo: AgentStore) => Promise<T>): Promise<T> {
    try {
      return await this.repo.transaction(work);
    } catch (error) {
      if (isTitleClash(error)) {
        throw new AppError('CONFLICT', `You already have a template titled "${title ?? ''}"`, {
          details: [{ field: 'title', message: 'is already used by another of your templates' }],
        });
      }
      throw error;
    }
  }

  private async reload(viewer: Viewer, id: string, repo: Pick<AgentStore, 'visibleTemplates'> = this.repo): Promise<AgentTemplateType> {
    const [template] = await repo.visibleTemplates(viewer, this.settings.adminOrgId, [id]);
    if (!template) throw notFound('Agent template');
    return template;
  }
}
