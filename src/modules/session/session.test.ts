import { z } from 'zod';
import { hasUnread } from './session.service';
import { addMessageInput, createChatInput } from './session.inputs';

describe('chat unread state', () => {
  const at = (iso: string) => new Date(iso);
  it('is unread only when an assistant message is newer than the read marker', () => {
    expect(hasUnread(null, null)).toBe(false);
    expect(hasUnread(null, at('2026-01-01T00:00:00Z'))).toBe(false);
    expect(hasUnread(at('2026-01-01T00:00:00Z'), null)).toBe(true);
    expect(hasUnread(at('2026-01-01T00:00:01Z'), at('2026-01-01T00:00:00Z'))).toBe(true);
    expect(hasUnread(at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z'))).toBe(false);
    expect(hasUnread(at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:01Z'))).toBe(false);
  });
});

describe('session inputs', () => {
  const sessionId = '5f0c6d3e-2b1a-4c9d-8e7f-6a5b4c3d2e1f';
  it('accepts model ids of providers and rejects odd ones', () => {
    expect(createChatInput.safeParse({ sessionId, title: 'x', modelId: 'anthropic/claude-3.5:beta' }).success).toBe(true);
    expect(createChatInput.safeParse({ sessionId, title: 'x', modelId: 'a b' }).success).toBe(false);
    expect(createChatInput.safeParse({ sessionId, title: 'x' }).success).toBe(true);
  });
  it('takes only the known roles', () => {
    expect(addMessageInput.safeParse({ sessionId, chatId: sessionId, role: 'assistant', content: 'hi' }).success).toBe(true);
    expect(addMessageInput.safeParse({ sessionId, chatId: sessionId, role: 'ASSISTANT', content: 'hi' }).success).toBe(false);
  });
});

describe('session route inputs', () => {
  it('can be described as JSON Schema for the OpenAPI document', () => {
    for (const schema of [createChatInput, addMessageInput]) expect(() => z.toJSONSchema(schema)).not.toThrow();
  });
});
