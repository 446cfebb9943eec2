import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { LIST_BOUNDS } from '../../common/bounds';
import { describe } from '../../common/validation';
import { Page } from '../../graphql/common.types';
import { createApiKeyInput, revokeApiKeyInput, signupInput, verifyInput } from './auth.inputs';

@ObjectType('ApiKey', { description: 'A personal API key, without its secret' })
export class ApiKeyInfo {
  @Field(() => ID, { description: 'The key id (UUID): revoke the key by it' })
  id!: string;

  @Field({ description: 'The label given when the key was created' })
  name!: string;

  @Field({ description: 'First characters of the key, to tell keys apart' })
  hint!: string;

  @Field({ description: 'When the key was created', name: 'createdAt' })
  created_at!: Date;

  @Field(() => Date, { name: 'lastUsedAt', nullable: true, description: 'Last authenticated use (updated at most once a minute)' })
  last_used_at!: Date | null;

  @Field({ description: 'Whether the key is revoked (a revoked key authenticates no request)' })
  revoked!: boolean;

  @Field(() => Date, { description: 'When the key was revoked; null while it is active', name: 'revokedAt', nullable: true })
  revoked_at!: Date | null;
}

@ObjectType('ApiKeyPage', { description: `A page of the caller's API keys, newest first (of the newest ${LIST_BOUNDS.apiKeysListed})` })
export class ApiKeyPage extends Page(ApiKeyInfo, LIST_BOUNDS.apiKeysListed) {}

@ObjectType('IssuedApiKey', { description: 'An API key just created, with its secret' })
export class IssuedApiKey {
  @Field(() => ApiKeyInfo, { description: 'The key as listed afterwards (without its secret)' })
  key!: ApiKeyInfo;

  @Field({ name: 'apiKey', description: 'The secret key: shown this once, never again' })
  api_key!: string;
}

@ObjectType('AgentOnboarding', { description: "Where an agent's signup stands: a first API key, or a code sent by e-mail" })
export class AgentOnboarding {
  @Field(() => ID, { name: 'accountId', nullable: true, description: 'The account, once it has a key' })
  account_id!: string | null;

  @Field(() => String, { name: 'apiKey', nullable: true, description: 'The first API key (shown once), or null while a code is pending' })
  api_key!: string | null;

  @Field({ description: 'What happened and what to do next (e.g. that a code was e-mailed)' })
  message!: string;
}

@InputType('SignupAgentInput', { description: 'The address an agent signs up with' })
export class SignupAgentInputType {
  @Field({ description: describe(signupInput, 'email') })
  email!: string;
}

@InputType('VerifyAgentInput', { description: 'The address and the code e-mailed to it' })
export class VerifyAgentInputType {
  // code before email: the order the REST edge has always checked and reported (400 details) these fields in.
  @Field({ description: describe(verifyInput, 'code') })
  code!: string;

  @Field({ description: describe(verifyInput, 'email') })
  email!: string;
}

@InputType('CreateApiKeyInput', { description: 'A new personal API key' })
export class CreateApiKeyInputType {
  @Field({ description: describe(createApiKeyInput, 'name') })
  name!: string;
}

@InputType('RevokeApiKeyInput', { description: 'One of your API keys' })
export class RevokeApiKeyInputType {
  @Field(() => ID, { description: describe(revokeApiKeyInput, 'id') })
  id!: string;
}
