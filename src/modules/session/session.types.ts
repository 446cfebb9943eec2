import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { describe } from '../../common/validation';
import { Page } from '../../graphql/common.types';
import { addMessageInput, chatRefInput, createChatInput, createSessionInput, SESSIONS_PAGE_DEFAULT } from './session.inputs';

/** Who wrote a chat message; the names are the REST values. */
export enum ChatMessageRole {
  user = 'user',
  assistant = 'assistant',
  system = 'system',
}
registerEnumType(ChatMessageRole, { name: 'ChatMessageRole', description: 'user, assistant or system' });

@ObjectType('Session', { description: 'A working session of one account (private to it)' })
export class SessionType {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  /** Its chats, when the read that produced the session already has them (Session.chats answers these). */
  chats?: SessionChat[];
}

@ObjectType('SessionPage', { description: "A page of the caller's sessions, newest first" })
export class SessionPage extends Page(SessionType, SESSIONS_PAGE_DEFAULT) {}

@ObjectType('SessionChat', { description: 'A chat of a session, with its unread and streaming state' })
export class SessionChat {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  sessionId!: string;

  @Field()
  title!: string;

  @Field()
  createdAt!: Date;

  @Field()
  updatedAt!: Date;

  @Field({ description: 'The last assistant message is newer than the read marker (or the chat was never read)' })
  hasUnread!: boolean;

  @Field({ description: 'An assistant reply is streaming (activeStreamId is set)' })
  isStreaming!: boolean;

  @Field(() => String, { nullable: true, description: 'Model chosen for this chat; null means defaultModelId' })
  modelId!: string | null;

  @Field(() => String, { nullable: true })
  activeStreamId!: string | null;

  @Field(() => Date, { nullable: true })
  lastAssistantMessageAt!: Date | null;
}

@ObjectType('ChatMessage', { description: 'A message of a chat' })
export class ChatMessageType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  chatId!: string;

  @Field(() => ChatMessageRole)
  role!: ChatMessageRole;

  @Field()
  content!: string;

  @Field()
  createdAt!: Date;
}

@ObjectType('ChatMessageAdded', { description: 'A message just appended to a chat, with the chat after it' })
export class ChatMessageAdded {
  @Field(() => ChatMessageType)
  message!: ChatMessageType;

  @Field(() => SessionChat, { description: 'The chat after the message' })
  chat!: SessionChat;
}

@InputType('CreateSessionInput', { description: 'A new session of the caller' })
export class CreateSessionInput {
  @Field(() => String, { description: describe(createSessionInput, 'title') })
  title!: string;
}

@InputType('CreateChatInput', { description: "A new chat in one of the caller's sessions" })
export class CreateChatInput {
  @Field(() => ID, { description: describe(createChatInput, 'sessionId') })
  sessionId!: string;

  @Field(() => String, { description: describe(createChatInput, 'title') })
  title!: string;

  @Field(() => String, { nullable: true, description: describe(createChatInput, 'modelId') })
  modelId?: string | null;
}

@InputType('MarkChatReadInput', { description: "A chat of one of the caller's sessions" })
export class MarkChatReadInput {
  @Field(() => ID, { description: describe(chatRefInput, 'sessionId') })
  sessionId!: string;

  @Field(() => ID, { description: describe(chatRefInput, 'chatId') })
  chatId!: string;
}

@InputType('AddChatMessageInput', { description: "A message to append to a chat of one of the caller's sessions" })
export class AddChatMessageInput {
  @Field(() => ID, { description: describe(addMessageInput, 'sessionId') })
  sessionId!: string;

  @Field(() => ID, { description: describe(addMessageInput, 'chatId') })
  chatId!: string;

  @Field(() => ChatMessageRole, { description: describe(addMessageInput, 'role') })
  role!: ChatMessageRole;

  @Field(() => String, { description: describe(addMessageInput, 'content') })
  content!: string;
}
