import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { AccessPolicy } from '../../auth/access';
import type { Viewer } from '../../auth/viewer';
import { pgArray } from '../../db/sql';
import type { AgentTemplateType } from './agent.types';

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

/**
 * Templates visible to the viewer, with creator, favourite state and (for the owner) shared
 * addresses, in ONE statement whatever the number of rows; `ids` narrows it to those templates.
 */
export async function fetchVisibleTemplates(
  em: EntityManager,
  viewer: Viewer,
  adminOrgId: string,
  ids?: readonly string[],
): Promise<AgentTemplateType[]> {
  const visible = new AccessPolicy(em).templateVisibility(viewer, 't');
  const rows = await em.execute<TemplateRow[]>(
    `select t.id, t.title, t.description, t.prompt, t.tags, t.is_private, t.favorites_count, t.created_at, t.updated_at,
            c.id as creator_id, c.name as creator_name, c.image as creator_image,
            (c.id = ? or exists (select 1 from memberships m where m.member_id = c.id and m.organization_id = ?)) as creator_is_admin,
            exists (select 1 from template_favourites f where f.template_id = t.id and f.account_id = ?) as is_favourite,
            case when t.creator_id = ?
                 then coalesce((select array_agg(s.email order by s.email) from template_shares s where s.template_id = t.id), '{}')
                 else '{}' end as shared_emails
       from agent_templates t join accounts c on c.id = t.creator_id
      where ${visible.sql} ${ids ? 'and t.id = any(?::uuid[])' : ''}
      order by t.title, t.id`,
    [adminOrgId, adminOrgId, viewer.accountId, viewer.accountId, ...visible.bindings, ...(ids ? [pgArray(ids)] : [])],
  );
  return rows.map(toTemplate);
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

/** A template id asked for by one viewer (loaders live for one request, so one viewer). */
export interface TemplateKey {
  id: string;
  viewer: Viewer;
  adminOrgId: string;
}

export function createAgentLoaders(em: EntityManager) {
  return {
    /** A template as the viewer sees it, or null when it is absent or not visible to the viewer. */
    visibleTemplateById: new DataLoader<TemplateKey, AgentTemplateType | null, string>(
      async (keys) => {
        const byViewer = new Map<string, TemplateKey[]>();
        for (const k of keys) byViewer.set(k.viewer.accountId, [...(byViewer.get(k.viewer.accountId) ?? []), k]);
        const found = new Map<string, AgentTemplateType>();
        for (const group of byViewer.values()) {
          const { viewer, adminOrgId } = group[0];
          const rows = await fetchVisibleTemplates(em, viewer, adminOrgId, [...new Set(group.map((k) => k.id))]);
          for (const t of rows) found.set(`${viewer.accountId}:${t.id}`, t);
        }
        return keys.map((k) => found.get(`${k.viewer.accountId}:${k.id}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.viewer.accountId}:${k.id}` },
    ),
  };
}
