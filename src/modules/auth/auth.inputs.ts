import { z } from 'zod';
import { uuid } from '../../common/validation';

export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { message: 'must be at most 254 characters' })
  .pipe(z.email({ message: 'must be an e-mail address' }))
  .describe('E-mail address; a local part starting with agent+ gets an API key at once');

export const signupInput = z.object({ email: emailAddress });

export const verifyInput = z.object({
  email: emailAddress,
  code: z.string().trim().regex(/^[0-9]{6}$/, { message: 'must be the 6-digit code from the e-mail' }).describe('6-digit code from the e-mail'),
});

export const apiKeyName = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(100, { message: 'must be at most 100 characters' })
  .describe('A label to tell keys apart');

export const createApiKeyInput = z.object({ name: apiKeyName });

export const revokeApiKeyInput = z.object({ id: uuid().describe('Id of one of your keys') });

export type SignupInput = z.output<typeof signupInput>;
export type VerifyInput = z.output<typeof verifyInput>;
export type CreateApiKeyInput = z.output<typeof createApiKeyInput>;
export type RevokeApiKeyInput = z.output<typeof revokeApiKeyInput>;
