import { z } from 'zod';
import { limitArg, pageArg, uuid } from '../../common/validation';

export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 2_000;
export const PROMPT_MAX = 20_000;
export const TAG_MAX = 40;
export const TAGS_MAX = 20;
export const SHARED_EMAILS_MAX = 100;

export const templateId = uuid().describe('Id of the agent template');

const title = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(TITLE_MAX, { message: `must be at most ${TITLE_MAX} characters` });
const description = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(DESCRIPTION_MAX, { message: `must be at most ${DESCRIPTION_MAX} characters` });
const prompt = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(PROMPT_MAX, { message: `must be at most ${PROMPT_MAX} characters` });
const tags = z
  .array(
    z
      .string()
      .trim()
      .min(1, { message: 'must not be empty' })
      .max(TAG_MAX, { message: `must be at most ${TAG_MAX} characters` }),
  )
  .max(TAGS_MAX, { message: `must hold at most ${TAGS_MAX} tags` });
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be an e-mail address' }));
const sharedEmails = z
  .array(email)
  .max(SHARED_EMAILS_MAX, { message: `must hold at most ${SHARED_EMAILS_MAX} addresses` });
const isPrivate = z.boolean();

/** What each template field is: the GraphQL input fields and the OpenAPI document carry these. */
const TEXT = {
  title: '1-120 characters, unique among the templates of its creator',
  description: 'What the template is for, 1-2000 characters',
  prompt: 'The prompt text, 1-20000 characters',
  tags: 'At most 20 tags of 1-40 characters; duplicates are dropped',
  is_private: 'A private template is seen only by its owner and the shared addresses',
  shared_emails: 'At most 100 addresses that may see the template even when private; stored lower-cased; shown only to the owner',
};

/** POST /api/agents/templates */
export const createTemplateInput = z.object({
  title: title.describe(TEXT.title),
  description: description.describe(TEXT.description),
  prompt: prompt.describe(TEXT.prompt),
  tags: tags.nullish().describe(TEXT.tags),
  is_private: isPrivate.nullish().describe(`${TEXT.is_private}; default false`),
  shared_emails: sharedEmails.nullish().describe(TEXT.shared_emails),
});
export type CreateTemplateInput = z.output<typeof createTemplateInput>;

/** PATCH /api/agents/templates/{id}: only the fields given change; shared_emails replaces the list. */
export const updateTemplateInput = z.object({
  id: templateId,
  title: title.nullish().describe(TEXT.title),
  description: description.nullish().describe(TEXT.description),
  prompt: prompt.nullish().describe(TEXT.prompt),
  tags: tags.nullish().describe(`${TEXT.tags}; replaces the list`),
  is_private: isPrivate.nullish().describe(TEXT.is_private),
  shared_emails: sharedEmails.nullish().describe(`${TEXT.shared_emails}; replaces the list`),
});
export type UpdateTemplateInput = z.output<typeof updateTemplateInput>;

/** PUT /api/agents/templates/{id}/favorite */
export const setFavoriteInput = z.object({
  id: templateId,
  is_favourite: z.boolean().describe('The desired favorite state for the authenticated account'),
});

/** DELETE /api/agents/templates/{id} */
export const templateIdInput = z.object({ id: templateId });

/** Keeps the first occurrence of each value, in order. */
export function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

export type SetFavoriteInput = z.output<typeof setFavoriteInput>;
export type TemplateIdInput = z.output<typeof templateIdInput>;

/** The most templates one read answers (Query.agentTemplates `limit`). */
export const TEMPLATES_PAGE_MAX = 500;

export const templatesInput = z.object({
  page: pageArg().describe('Page number of `limit` templates, from 1; in place of offset'),
  limit: limitArg(TEMPLATES_PAGE_MAX, TEMPLATES_PAGE_MAX).describe(`Templates to answer, 1 to ${TEMPLATES_PAGE_MAX}, default ${TEMPLATES_PAGE_MAX}`),
  offset: z.number().int().min(0, { message: 'must be at least 0' }).max(1_000_000, { message: 'must be at most 1000000' }).default(0).describe('Templates to skip, in title order; default 0'),
});
export type TemplatesInput = z.output<typeof templatesInput>;
