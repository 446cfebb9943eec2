import { AFTER_DESCRIPTION, firstDescription } from '../../common/paging';
import type { PageOf } from '../../graphql/common.types';
import { Arg, Authorized, Ctx, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { LIST_BOUNDS, maxItems } from '../../common/bounds';
import type { Context } from '../../request/context';
import type { Viewer } from '../../auth/viewer';
import { CurrentViewer, type Paged, type Parsed, ParsedArg, ParsedInput, ParsedPage } from '../../graphql/params';
import { describe } from '../../common/validation';
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

const sessions = (ctx: Context) => new SessionService(new SessionRepository(ctx.db), ctx.deps.config.sessions, ctx.loaders);

@Resolver()
export class SessionResolver {
  @Authorized()
  @Query(() => SessionPage, {
    nullable: true,
    description: `The caller's sessions, newest first, a page at a time: \`limit\` from \`page\` or \`offset\`, or \`first\` after a cursor (an account holds at most ${LIST_BOUNDS.sessionsPerAccount})`,
  })
  sessions(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedPage(sessionsInput, { args: ['limit', 'offset', 'page'], maxFirst: LIST_BOUNDS.sessionsPerAccount }) paged: Paged<Parsed<typeof sessionsInput>>,
    @Arg('limit', () => Int, { nullable: true, description: describe(sessionsInput, 'limit') }) _limit?: number | null,
    @Arg('offset', () => Int, { nullable: true, description: describe(sessionsInput, 'offset') }) _offset?: number | null,
    @Arg('page', () => Int, { nullable: true, description: describe(sessionsInput, 'page') }) _page?: number | null,
    @Arg('first', () => Int, { nullable: true, description: firstDescription(LIST_BOUNDS.sessionsPerAccount, SESSIONS_PAGE_DEFAULT) }) _first?: number | null,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) _after?: string | null,
  ): Promise<PageOf<SessionType>> {
    return sessions(ctx).list(viewer, paged.page);
  }

  @Authorized()
  @Query(() => SessionType, { nullable: true,
    description: "One of the caller's sessions with every chat of it, by createdAt ascending; another account's session is NOT_FOUND",
  })
  sessionChats(
    @Ctx() ctx: Context,
    @CurrentViewer() viewer: Viewer,
    @ParsedArg('sessionId', () => ID, sessionChatsInput, { description: describe(sessionChatsInput, 'sessionId') }) sessionId: string,
  ): Promise<SessionType> {
    return sessions(ctx).withChats(viewer, { sessionId });
  }

  @Authorized()
  @Mutation(() => SessionType, { description: 'Starts a session owned by the caller' })
  createSession(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateSessionInput, createSessionInput) input: Parsed<typeof createSessionInput>): Promise<SessionType> {
    return sessions(ctx).create(viewer, input);
  }

  @Authorized()
  @Mutation(() => SessionChat, { description: "Adds a chat to one of the caller's sessions" })
  createChat(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => CreateChatInput, createChatInput) input: Parsed<typeof createChatInput>): Promise<SessionChat> {
    return sessions(ctx).createChat(viewer, input);
  }

  @Authorized()
  @Mutation(() => SessionChat, { description: 'Marks a chat read up to now (hasUnread becomes false)' })
  markChatRead(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => MarkChatReadInput, chatRefInput) input: Parsed<typeof chatRefInput>): Promise<SessionChat> {
    return sessions(ctx).markRead(viewer, input);
  }

  @Authorized()
  @Mutation(() => ChatMessageAdded, {
    description: 'Appends a message to a chat; an assistant message sets lastAssistantMessageAt, so the chat turns unread',
  })
  addChatMessage(@Ctx() ctx: Context, @CurrentViewer() viewer: Viewer, @ParsedInput(() => AddChatMessageInput, addMessageInput) input: Parsed<typeof addMessageInput>): Promise<ChatMessageAdded> {
    return sessions(ctx).addMessage(viewer, input);
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
