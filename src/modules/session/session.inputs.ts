import { z } from 'zod';
import { LIST_BOUNDS } from '../../common/bounds';
import { limitArg, pageArg, uuid } from '../../common/validation';

export const SESSION_TITLE_MAX = 200;
export const CHAT_TITLE_MAX = 200;
export const MODEL_ID_MAX = 100;
export const MESSAGE_MAX = 100_000;

export const sessionId = uuid().describe('Id of the session');
export const chatId = uuid().describe('Id of the chat');

const title = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(max, { message: `must be at most ${max} characters` });

/** POST /api/sessions */
export const createSessionInput = z.object({ title: title(SESSION_TITLE_MAX).describe('Title of the session, 1-200 characters') });

/** GET /api/sessions/{sessionId}/chats */
export const sessionChatsInput = z.object({ sessionId });

/** Sessions one read answers without a `limit` (an account holds at most LIST_BOUNDS.sessionsPerAccount). */
export const SESSIONS_PAGE_DEFAULT = 100;
export const sessionsInput = z.object({
  page: pageArg().describe('Page number of `limit` sessions, from 1; in place of offset'),
  limit: limitArg(LIST_BOUNDS.sessionsPerAccount, SESSIONS_PAGE_DEFAULT).describe(`Sessions to answer, 1 to ${LIST_BOUNDS.sessionsPerAccount}, default ${SESSIONS_PAGE_DEFAULT}`),
  offset: z.number().int().min(0, { message: 'must be at least 0' }).max(LIST_BOUNDS.sessionsPerAccount, { message: `must be at most ${LIST_BOUNDS.sessionsPerAccount}` }).default(0).describe('Sessions to skip, newest first; default 0'),
});

/** POST /api/sessions/{sessionId}/chats */
export const createChatInput = z.object({
  sessionId,
  title: title(CHAT_TITLE_MAX).describe('Title of the chat, 1-200 characters'),
  modelId: z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(MODEL_ID_MAX, { message: `must be at most ${MODEL_ID_MAX} characters` })
    .regex(/^[A-Za-z0-9._:/@-]+$/, { message: 'may hold only letters, digits and . _ : / @ -' })
    .nullish()
    .describe('Model for this chat; omitted means the default model (defaultModelId)'),
});

/** POST /api/sessions/{sessionId}/chats/{chatId}/read */
export const chatRefInput = z.object({ sessionId, chatId });

export const MESSAGE_ROLES = ['user', 'assistant', 'system'] as const;

/** POST /api/sessions/{sessionId}/chats/{chatId}/messages */
export const addMessageInput = z.object({
  sessionId,
  chatId,
  role: z.enum(MESSAGE_ROLES, { message: `must be one of: ${MESSAGE_ROLES.join(', ')}` }).describe('Who wrote the message: user, assistant or system'),
  content: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(MESSAGE_MAX, { message: `must be at most ${MESSAGE_MAX} characters` })
    .refine((v) => v.trim().length > 0, { message: 'must not be blank' })
    .describe('The message text, 1-100000 characters, not blank'),
});

export type CreateSessionInput = z.output<typeof createSessionInput>;
export type SessionChatsInput = z.output<typeof sessionChatsInput>;
export type SessionsInput = z.output<typeof sessionsInput>;
export type CreateChatInput = z.output<typeof createChatInput>;
export type ChatRefInput = z.output<typeof chatRefInput>;
export type AddMessageInput = z.output<typeof addMessageInput>;
