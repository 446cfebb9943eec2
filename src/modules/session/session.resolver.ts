import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { SuccessStatus } from '../../graphql/common.types';
import { requireViewer } from '../../auth/access';
import { validate } from '../../common/validation';
import { addMessageInput, chatRefInput, createChatInput, createSessionInput, sessionChatsInput } from './session.inputs';
import { SessionRepository } from './session.repository';
import { SessionService } from './session.service';
import { ChatMessageResult, ChatMessageRole, SessionChatResult, SessionChatsResult, SessionResult, SessionsResult } from './session.types';

const sessions = (ctx: Context) => new SessionService(new SessionRepository(ctx.em), ctx.deps.config.sessions);

@Resolver()
export class SessionResolver {
  @Authorized()
  @Query(() => SessionsResult, { description: "The caller's sessions, newest first" })
  async sessions(@Ctx() ctx: Context): Promise<SessionsResult> {
    return { status: SuccessStatus.success, sessions: await sessions(ctx).list(requireViewer(ctx.viewer)) };
  }

  @Authorized()
  @Query(() => SessionChatsResult, {
    description: "Every chat of one of the caller's sessions, by createdAt ascending; another account's session is NOT_FOUND",
  })
  async sessionChats(
    @Ctx() ctx: Context,
    @Arg('sessionId', () => ID, { description: 'Session id (UUID)' }) sessionId: string,
  ): Promise<SessionChatsResult> {
    return sessions(ctx).chats(requireViewer(ctx.viewer), validate(sessionChatsInput, { sessionId }));
  }

  @Authorized()
  @Mutation(() => SessionResult, { description: 'Starts a session owned by the caller' })
  async createSession(
    @Ctx() ctx: Context,
    @Arg('title', () => String, { description: '1-200 characters' }) title: string,
  ): Promise<SessionResult> {
    return { status: SuccessStatus.success, session: await sessions(ctx).create(requireViewer(ctx.viewer), validate(createSessionInput, { title })) };
  }

  @Authorized()
  @Mutation(() => SessionChatResult, { description: "Adds a chat to one of the caller's sessions" })
  async createChat(
    @Ctx() ctx: Context,
    @Arg('sessionId', () => ID, { description: 'Session id (UUID)' }) sessionId: string,
    @Arg('title', () => String, { description: '1-200 characters' }) title: string,
    @Arg('modelId', () => String, { nullable: true, description: 'Model for this chat; omitted means defaultModelId' })
    modelId?: string | null,
  ): Promise<SessionChatResult> {
    return { status: SuccessStatus.success, chat: await sessions(ctx).createChat(requireViewer(ctx.viewer), validate(createChatInput, { sessionId, title, modelId })) };
  }

  @Authorized()
  @Mutation(() => SessionChatResult, { description: 'Marks a chat read up to now (hasUnread becomes false)' })
  async markChatRead(
    @Ctx() ctx: Context,
    @Arg('sessionId', () => ID, { description: 'Session id (UUID)' }) sessionId: string,
    @Arg('chatId', () => ID, { description: 'Chat id (UUID)' }) chatId: string,
  ): Promise<SessionChatResult> {
    return { status: SuccessStatus.success, chat: await sessions(ctx).markRead(requireViewer(ctx.viewer), validate(chatRefInput, { sessionId, chatId })) };
  }

  @Authorized()
  @Mutation(() => ChatMessageResult, {
    description: 'Appends a message to a chat; an assistant message sets lastAssistantMessageAt, so the chat turns unread',
  })
  async addChatMessage(
    @Ctx() ctx: Context,
    @Arg('sessionId', () => ID, { description: 'Session id (UUID)' }) sessionId: string,
    @Arg('chatId', () => ID, { description: 'Chat id (UUID)' }) chatId: string,
    @Arg('role', () => ChatMessageRole) role: ChatMessageRole,
    @Arg('content', () => String, { description: '1-100000 characters' }) content: string,
  ): Promise<ChatMessageResult> {
    const { message, chat } = await sessions(ctx).addMessage(requireViewer(ctx.viewer), validate(addMessageInput, { sessionId, chatId, role, content }));
    return { status: SuccessStatus.success, message, chat };
  }
}
