import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AccountKind, type Viewer } from '../../auth/viewer';
import { AgentTemplate } from './agent-template.entity';
import type { Position } from '../../common/paging';
import type { AgentStore, NewTemplate, TemplatesPage } from './agent.repository';
import { AgentService } from './agent.service';
import type { AgentTemplateType } from './agent.types';

interface Stored extends NewTemplate {
  id: string;
  creatorId: string;
  favourites: Set<string>;
}

const viewer = (accountId: string, email: string | null = null): Viewer => ({
  accountId,
  kind: AccountKind.person,
  name: accountId,
  email,
  organizationIds: [],
  isAdmin: false,
  via: 'api_key',
});

const nora = viewer('nora', 'nora@northwind.test');
const sam = viewer('sam', 'sam@southwind.test');
const otto = viewer('otto', 'otto@outside.test');

/**
 * Templates in memory, seen under the same rule as the SQL predicate (own, public, shared with
 * the viewer's address). A transaction works on the rows and, like the unique index, refuses a
 * second template of one creator with the same title when it commits.
 */
class FakeAgentStore implements AgentStore {
  rows = new Map<string, Stored>();
  /** Entities handed out by ownedTemplate in the current transaction, written back on commit. */
  private loaded: AgentTemplate[] = [];
  private nextId = 1;

  add(creatorId: string, fields: Partial<NewTemplate> = {}): string {
    const id = this.createTemplate(creatorId, { title: `T${this.nextId}`, description: 'D', prompt: 'P', tags: [], isPrivate: false, sharedEmails: [], ...fields });
    return id;
  }

  private sees(v: Viewer, t: Stored): boolean {
    return t.creatorId === v.accountId || !t.isPrivate || (v.email !== null && t.sharedEmails.includes(v.email));
  }

  async transaction<T>(work: (repo: AgentStore) => Promise<T>): Promise<T> {
    const before = new Map([...this.rows].map(([id, t]) => [id, { ...t, favourites: new Set(t.favourites) }]));
    try {
      const result = await work(this);
      for (const e of this.loaded) Object.assign(this.rows.get(e.id)!, { title: e.title, description: e.description, prompt: e.prompt, tags: e.tags, isPrivate: e.isPrivate });
      const titles = [...this.rows.values()].map((t) => `${t.creatorId}:${t.title}`);
      if (new Set(titles).size !== titles.length) {
        throw new UniqueConstraintViolationException(new Error('duplicate key value violates unique constraint "agent_templates_creator_title_unique"'));
      }
      return result;
    } catch (error) {
      this.rows = before;
      throw error;
    } finally {
      this.loaded = [];
    }
  }

  async visibleTemplatesPage(v: Viewer, adminOrgId: string, position: Position<readonly string[]>, limit: number): Promise<TemplatesPage> {
    const all = (await this.visibleTemplates(v, adminOrgId)).sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
    const skipped = 'offset' in position ? position.offset : all.filter((t) => t.title < position.after[0]! || (t.title === position.after[0] && t.id <= position.after[1]!)).length;
    return { total: all.length, skipped, templates: all.slice(skipped, skipped + limit) };
  }

  async visibleTemplates(v: Viewer, _adminOrgId: string, ids?: readonly string[]): Promise<AgentTemplateType[]> {
    return [...this.rows.values()]
      .filter((t) => this.sees(v, t) && (!ids || ids.includes(t.id)))
      .map((t) => ({
        id: t.id,
        title: t.title,
        description: t.description,
        prompt: t.prompt,
        tags: t.tags,
        creator: { id: t.creatorId, name: t.creatorId, image: null, is_admin: false },
        is_private: t.isPrivate,
        is_favourite: t.favourites.has(v.accountId),
        favorites_count: t.favourites.size,
        shared_emails: t.creatorId === v.accountId ? [...t.sharedEmails].sort() : [],
        created_at: new Date(0),
        updated_at: new Date(0),
      }));
  }

  async isVisible(v: Viewer, id: string): Promise<boolean> {
    const t = this.rows.get(id);
    return !!t && this.sees(v, t);
  }

  lockVisible = this.isVisible;

  async addFavourite(templateId: string, accountId: string): Promise<void> {
    this.rows.get(templateId)!.favourites.add(accountId);
  }

  async removeFavourite(templateId: string, accountId: string): Promise<void> {
    this.rows.get(templateId)!.favourites.delete(accountId);
  }

  async recountFavourites(templateId: string): Promise<number> {
    return this.rows.get(templateId)!.favourites.size;
  }

  createTemplate(creatorId: string, fields: NewTemplate): string {
    const id = `tpl-${this.nextId++}`;
    this.rows.set(id, { ...fields, id, creatorId, favourites: new Set() });
    return id;
  }

  async ownedTemplate(accountId: string, id: string): Promise<AgentTemplate | null> {
    const t = this.rows.get(id);
    if (!t || t.creatorId !== accountId) return null;
    const entity = Object.assign(new AgentTemplate(), { id, title: t.title, description: t.description, prompt: t.prompt, tags: t.tags, isPrivate: t.isPrivate });
    this.loaded.push(entity);
    return entity;
  }

  async replaceShares(template: AgentTemplate, emails: readonly string[]): Promise<void> {
    this.rows.get(template.id)!.sharedEmails = [...emails];
  }

  async deleteOwned(accountId: string, id: string): Promise<boolean> {
    if (this.rows.get(id)?.creatorId !== accountId) return false;
    return this.rows.delete(id);
  }
}

describe('AgentService rules', () => {
  let store: FakeAgentStore;
  let service: AgentService;
  const loaders = { visibleTemplateById: { load: () => Promise.reject(new Error('not used')) } } as never;

  beforeEach(() => {
    store = new FakeAgentStore();
    service = new AgentService(store, loaders, { adminOrgId: 'admins' });
  });

  const code = (promise: Promise<unknown>) => promise.then(() => 'OK', (error: { code?: string }) => error.code);

  it('lets only the creator edit or delete: 403 for a template the caller sees, 404 for one it does not', async () => {
    const pub = store.add('nora', { title: 'Public' });
    const shared = store.add('nora', { title: 'Shared', isPrivate: true, sharedEmails: ['sam@southwind.test'] });
    const hidden = store.add('nora', { title: 'Hidden', isPrivate: true });

    expect(await code(service.update(sam, { id: pub, title: 'Mine now' }))).toBe('FORBIDDEN');
    expect(await code(service.update(sam, { id: shared, is_private: false }))).toBe('FORBIDDEN');
    expect(await code(service.update(sam, { id: hidden, title: 'x' }))).toBe('NOT_FOUND');
    expect(await code(service.update(sam, { id: 'missing', title: 'x' }))).toBe('NOT_FOUND');
    expect(await code(service.remove(otto, { id: pub }))).toBe('FORBIDDEN');
    expect(await code(service.remove(otto, { id: shared }))).toBe('NOT_FOUND');
    expect([...store.rows.values()].map((t) => [t.title, t.isPrivate])).toEqual([['Public', false], ['Shared', true], ['Hidden', true]]);

    const edited = await service.update(nora, { id: shared, title: 'Renamed', shared_emails: ['b@x.test', 'a@x.test', 'b@x.test'] });
    expect(edited).toMatchObject({ title: 'Renamed', shared_emails: ['a@x.test', 'b@x.test'] });
    await service.remove(nora, { id: hidden });
    expect(store.rows.has(hidden)).toBe(false);
  });

  it('answers a title the creator already uses with CONFLICT naming the title, and writes nothing', async () => {
    store.add('nora', { title: 'Release plan' });
    const other = store.add('nora', { title: 'Other' });
    const clash = await service.create(nora, { title: 'Release plan', description: 'D', prompt: 'P' }).catch((e: unknown) => e);
    expect(clash).toMatchObject({ code: 'CONFLICT', details: [{ field: 'title', message: 'is already used by another of your templates' }] });
    expect(await code(service.update(nora, { id: other, title: 'Release plan' }))).toBe('CONFLICT');
    expect([...store.rows.values()].map((t) => t.title)).toEqual(['Release plan', 'Other']);
    // Another creator may use the same title.
    expect(await service.create(sam, { title: 'Release plan', description: 'D', prompt: 'P', tags: ['a', 'a'] })).toMatchObject({ title: 'Release plan', tags: ['a'] });
  });

  it('favourites only templates the caller sees and answers the template with the recounted total', async () => {
    const hidden = store.add('nora', { isPrivate: true });
    const pub = store.add('nora');
    expect(await code(service.setFavorite(sam, { id: hidden, is_favourite: true }))).toBe('NOT_FOUND');
    expect(store.rows.get(hidden)!.favourites.size).toBe(0);
    await service.setFavorite(nora, { id: pub, is_favourite: true });
    expect(await service.setFavorite(sam, { id: pub, is_favourite: true })).toMatchObject({ id: pub, favorites_count: 2, is_favourite: true });
    expect(await service.setFavorite(sam, { id: pub, is_favourite: false })).toMatchObject({ id: pub, favorites_count: 1, is_favourite: false });
  });
});
