import { z } from 'zod';

export const organizationName = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'must be at most 200 characters' });
