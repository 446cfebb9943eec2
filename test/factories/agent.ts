import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Account } from '../../src/modules/account/account.entity';
import { AgentTemplate, TemplateShare } from '../../src/modules/agent/agent-template.entity';
import type { Orm } from '../../src/db/orm';

/** An agent template by `creatorId`; private ones may be shared with e-mail addresses. */
export async function createTemplate(
  orm: Orm,
  creatorId: string,
  options: { title?: string; isPrivate?: boolean; tags?: string[]; sharedWith?: string[] } = {},
): Promise<AgentTemplate> {
  const em = orm.em.fork() as EntityManager;
  const template = em.create(AgentTemplate, {
    creator: em.getReference(Account, creatorId),
    title: options.title ?? `Template ${randomUUID().slice(0, 8)}`,
    description: 'Made by a test factory',
    prompt: 'You are a helpful music-industry assistant.',
    tags: options.tags ?? [],
    isPrivate: options.isPrivate ?? false,
  });
  for (const email of options.sharedWith ?? []) em.create(TemplateShare, { template, email: email.toLowerCase() });
  await em.flush();
  return template;
}
