import { AFTER_DESCRIPTION, firstDescription, pageRequest } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import { Arg, Authorized, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import type { Context } from '../../graphql/context';
import { requireViewer } from '../../auth/access';
import { describe, validate, withoutNulls } from '../../common/validation';
import { addMessageInput, chatRefInput, createChatInput, createSessionInput, sessionChatsInput, SESSIONS_PAGE_DEFAULT, sessionsInput } from './session.inputs';
import { SessionRepository } from './session.repository';
import { SessionService } from './session.service';
import {
  AddChatMessageInput,
  ChatMessageAdded,
  CreateChatInput,
  CreateSessionInput,
  MarkChatReadInput,
  SessionChat,
  SessionPage,
  SessionType,
} from './session.types';

const sessions = (ctx: Context) => new SessionService(new SessionRepository(ctx.em), ctx.deps.config.sessions, ctx.loaders);

@Resolver()
export class SessionResolver {
  @Authorized()
  @Query(() => SessionPage, {
    nullable: true,
    description: `The caller's sessions, newest first, a page at a time: \`limit\` from \`page\` or \`offset\`, or \`first\` after a cursor (an account holds at most ${LIST_BOUNDS.sessionsPerAccount})`,
  })
  sessions(
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { nullable: true, description: describe(sessionsInput, 'limit') }) limit?: number | null,
    @Arg('offset', () => Int, { nullable: true, description: describe(sessionsInput, 'offset') }) offset?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(sessionsInput, 'page') }) page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(LIST_BOUNDS.sessionsPerAccount, SESSIONS_PAGE_DEFAULT) }) first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) after?: string | null,
  ): Promise<PageOf<SessionType>> {
    const parsed = validate(sessionsInput, withoutNulls({ limit, offset, page }));
    return sessions(ctx).list(requireViewer(ctx.viewer), pageRequest(parsed, { limit, offset, page, first, after }, LIST_BOUNDS.sessionsPerAccount));
  }

  @Authorized()
  @Query(() => SessionType, { nullable: true,
    description: "One of the caller's sessions with every chat of it, by createdAt ascending; another account's session is NOT_FOUND",
  })
  sessionChats(
    @Ctx() ctx: Context,
    @Arg('sessionId', () => ID, { description: describe(sessionChatsInput, 'sessionId') }) sessionId: string,
  ): Promise<SessionType> {
    return sessions(ctx).withChats(requireViewer(ctx.viewer), validate(sessionChatsInput, { sessionId }));
  }

  @Authorized()
  @Mutation(() => SessionType, { description: 'Starts a session owned by the caller' })
  createSession(@Ctx() ctx: Context, @Arg('input', () => CreateSessionInput) input: CreateSessionInput): Promise<SessionType> {
    return sessions(ctx).create(requireViewer(ctx.viewer), validate(createSessionInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => SessionChat, { description: "Adds a chat to one of the caller's sessions" })
  createChat(@Ctx() ctx: Context, @Arg('input', () => CreateChatInput) input: CreateChatInput): Promise<SessionChat> {
    return sessions(ctx).createChat(requireViewer(ctx.viewer), validate(createChatInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => SessionChat, { description: 'Marks a chat read up to now (hasUnread becomes false)' })
  markChatRead(@Ctx() ctx: Context, @Arg('input', () => MarkChatReadInput) input: MarkChatReadInput): Promise<SessionChat> {
    return sessions(ctx).markRead(requireViewer(ctx.viewer), validate(chatRefInput, withoutNulls({ ...input })));
  }

  @Authorized()
  @Mutation(() => ChatMessageAdded, {
    description: 'Appends a message to a chat; an assistant message sets lastAssistantMessageAt, so the chat turns unread',
  })
  addChatMessage(@Ctx() ctx: Context, @Arg('input', () => AddChatMessageInput) input: AddChatMessageInput): Promise<ChatMessageAdded> {
    return sessions(ctx).addMessage(requireViewer(ctx.viewer), validate(addMessageInput, withoutNulls({ ...input })));
  }
}

@Resolver(() => SessionType)
export class SessionGraphResolver {
  @Extensions(maxItems(LIST_BOUNDS.chatsPerSession))
  @FieldResolver(() => [SessionChat], { description: `Every chat of the session, by createdAt ascending (a session holds at most ${LIST_BOUNDS.chatsPerSession})` })
  chats(@Root() session: SessionType, @Ctx() ctx: Context): Promise<SessionChat[]> {
    return sessions(ctx).chatsOf(session);
  }

  @FieldResolver(() => String, { description: 'The model a chat of this session uses when it names none (modelId null)' })
  defaultModelId(@Ctx() ctx: Context): string {
    return sessions(ctx).defaultModelId();
  }
}
