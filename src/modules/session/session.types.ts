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
registerEnumType(ChatMessageRole, {
  name: 'ChatMessageRole',
  description: 'user, assistant or system',
  valuesConfig: {
    user: { description: 'Written by the person (or agent) using the chat' },
    assistant: { description: "The model's reply; it turns the chat unread" },
    system: { description: 'An instruction to the model' },
  },
});

@ObjectType('Session', { description: 'A working session of one account (private to it)' })
export class SessionType {
  @Field(() => ID, { description: 'The session id (UUID)' })
  id!: string;

  @Field({ description: 'Title of the session (1-200 characters)' })
  title!: string;

  @Field({ description: 'When the session was started' })
  createdAt!: Date;

  @Field({ description: 'When the session last changed' })
  updatedAt!: Date;

  /** Its chats, when the read that produced the session already has them (Session.chats answers these). */
  chats?: SessionChat[];
}

@ObjectType('SessionPage', { description: "A page of the caller's sessions, newest first" })
export class SessionPage extends Page(SessionType, SESSIONS_PAGE_DEFAULT) {}

@ObjectType('SessionChat', { description: 'A chat of a session, with its unread and streaming state' })
export class SessionChat {
  @Field(() => ID, { description: 'The chat id (UUID)' })
  id!: string;

  @Field(() => ID, { description: 'The session the chat belongs to' })
  sessionId!: string;

  @Field({ description: 'Title of the chat (1-200 characters)' })
  title!: string;

  @Field({ description: 'When the chat was created' })
  createdAt!: Date;

  @Field({ description: 'When the chat last changed' })
  updatedAt!: Date;

  @Field({ description: 'The last assistant message is newer than the read marker (or the chat was never read)' })
  hasUnread!: boolean;

  @Field({ description: 'An assistant reply is streaming (activeStreamId is set)' })
  isStreaming!: boolean;

  @Field(() => String, { nullable: true, description: 'Model chosen for this chat; null means defaultModelId' })
  modelId!: string | null;

  @Field(() => String, { description: 'Id of the assistant reply streaming now; null when none is', nullable: true })
  activeStreamId!: string | null;

  @Field(() => Date, { description: 'When the last assistant message was appended; null when there is none', nullable: true })
  lastAssistantMessageAt!: Date | null;
}

@ObjectType('ChatMessage', { description: 'A message of a chat' })
export class ChatMessageType {
  @Field(() => ID, { description: 'The message id (UUID)' })
  id!: string;

  @Field(() => ID, { description: 'The chat the message belongs to' })
  chatId!: string;

  @Field(() => ChatMessageRole, { description: 'Who wrote the message' })
  role!: ChatMessageRole;

  @Field({ description: 'The message text (1-100000 characters)' })
  content!: string;

  @Field({ description: 'When the message was appended' })
  createdAt!: Date;
}

@ObjectType('ChatMessageAdded', { description: 'A message just appended to a chat, with the chat after it' })
export class ChatMessageAdded {
  @Field(() => ChatMessageType, { description: 'The message just appended' })
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
