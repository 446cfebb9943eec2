import { createParameterDecorator, getMetadataStorage } from 'type-graphql';
import type { ArgOptions, ResolverData } from 'type-graphql';
import type { z } from 'zod';
import { requireViewer } from '../auth/access';
import type { Viewer } from '../auth/viewer';
import { pageRequest, PageRequest } from '../common/paging';
import { restName } from '../common/names';
import { validate, withoutNulls } from '../common/validation';
import type { Context } from '../request/context';

/**
 * The framework seam between a GraphQL field and its resolver: parameter decorators (type-graphql's
 * own mechanism) hand a resolver the caller and its parsed input, so a resolver body neither checks
 * the caller nor parses.
 *
 * - `@CurrentViewer()`: the caller. On an `@Authorized()` method the authChecker (src/graphql/schema.ts),
 *   which runs before the parameters, is the one gate and this hands on the viewer it admitted; on a
 *   field without `@Authorized()` (a type's field, reached from a gated root or a federation
 *   reference) this is the gate: UNAUTHENTICATED when absent.
 * - `@ParsedInput(type, schema)`: declares the operation's one `input` argument and parses it with
 *   the operation's zod schema (GraphQL's nulls are absent values); `@ParsedArg(name, type, schema)`
 *   the same for one argument; `@ParsedArgs(schema, from)` parses arguments declared with `@Arg`
 *   (or values of the parent); `@ParsedPage(schema)` parses a page's arguments and settles the page
 *   asked for (`pageRequest`: page/limit/offset or first/after).
 *
 * A failure is a BAD_USER_INPUT naming every bad field, by the argument guard's renaming
 * (src/graphql/input-guard.ts) as before. The caller is decided before any input is parsed: a
 * method's `@CurrentViewer()` comes before its parsed parameters (checked when the schema is built,
 * `checkResolverParams`).
 */

type Data = ResolverData<Context>;
/** type-graphql's parameter decorator (its own signature: a method's parameter, never a constructor's). */
type ParameterDecorator = ReturnType<typeof createParameterDecorator>;
/** The GraphQL type of a declared argument, as `@Arg` takes it (`() => ID`, `() => CatalogSongsQueryInput`). */
type ReturnTypeFunc = NonNullable<Parameters<typeof createParameterDecorator>[1]>['arg'] extends infer A ? (A extends { typeFunc: infer F } ? F : never) : never;
/** Parses a value into what a service takes (a zod schema, or a module's own parser given the context). */
export type Parser<T = unknown> = z.ZodType<T> | ((value: Record<string, unknown>, ctx: Context) => T);

const VIEWER = new WeakSet<object>();
const PARSED = new WeakSet<object>();

function parseWith<T>(parser: Parser<T>, value: Record<string, unknown>, ctx: Context): T {
  return typeof parser === 'function' ? parser(value, ctx) : validate(parser, withoutNulls(value));
}

function without(value: Record<string, unknown>, omit: readonly string[] | undefined): Record<string, unknown> {
  if (!omit?.length) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !omit.includes(key)));
}

/** An input object's members as a plain record (an absent nullable input is an empty one). */
function members(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? { ...(value as Record<string, unknown>) } : {};
}

/** Whether type-graphql runs the authChecker before this method (`@Authorized()` on it or on its class). */
function isAuthorized(target: object, methodName: string): boolean {
  const storage = getMetadataStorage();
  return storage.authorizedFields.some((a) => a.target === target && a.fieldName === methodName) || storage.authorizedResolver.some((a) => a.target === target);
}

/** The caller (see above): the one gate of a method without `@Authorized()`, the admitted viewer on one with it. */
export function CurrentViewer(): ParameterDecorator {
  return (prototype, propertyKey, index) => {
    let gated: boolean | undefined;
    const resolve = ({ context }: Data): Viewer => {
      gated ??= isAuthorized(prototype.constructor, String(propertyKey));
      return gated ? (context.viewer as Viewer) : requireViewer(context.viewer);
    };
    VIEWER.add(resolve);
    createParameterDecorator<Context>(resolve)(prototype, propertyKey, index);
  };
}

function parsedParam(resolve: (data: Data) => unknown, arg?: { name: string; typeFunc: ReturnTypeFunc; options?: ArgOptions }): ParameterDecorator {
  // Asynchronous like type-graphql's own arguments: every failure reaches the resolver's one Promise.all.
  const asynchronous = async (data: Data) => resolve(data);
  PARSED.add(asynchronous);
  return createParameterDecorator<Context>(asynchronous, arg ? { arg } : {});
}

export interface InputOptions extends ArgOptions {
  /** Members the schema does not parse (a page's `first` and `after`, settled by `@ParsedPage`). */
  omit?: readonly string[];
}

/** The operation's one `input` argument, declared with its GraphQL type and parsed (`withoutNulls`, then the schema). */
export function ParsedInput<T>(typeFunc: ReturnTypeFunc, parser: Parser<T>, options: InputOptions = {}): ParameterDecorator {
  const { omit, ...argOptions } = options;
  return parsedParam(({ args, context }) => parseWith(parser, without(members(args.input), omit), context), { name: 'input', typeFunc, options: argOptions });
}

/** One argument, declared and parsed: the schema's value for it (`@ParsedArg('id', () => ID, catalogIdInput)` → the id). */
export function ParsedArg<S extends z.ZodObject>(name: string, typeFunc: ReturnTypeFunc, schema: S, options: ArgOptions = {}): ParameterDecorator {
  return parsedParam(
    ({ args }) => {
      const parsed = validate(schema, options.nullable ? withoutNulls({ [name]: args[name] }) : { [name]: args[name] }) as Record<string, unknown>;
      return parsed[name in schema.shape ? name : restName(name)];
    },
    { name, typeFunc, options },
  );
}

/**
 * What `@ParsedArgs` parses: the field's arguments (and its parent), in the schema's terms; null when
 * the field has nothing to parse (a parent without the value the schema needs: the resolver answers
 * without it).
 */
export type ArgsOf = (data: { args: Record<string, unknown>; root: never }) => Record<string, unknown> | null;

/**
 * Arguments declared with `@Arg` beside it (or values of the parent), parsed together. `from` names
 * the arguments the schema reads or builds its value (`({ root }) => ({ artist: root.id })`); GraphQL's
 * nulls are absent values, a value built by `from` is parsed as it is (null: nothing to parse, the
 * parameter is null).
 */
export function ParsedArgs<T>(parser: Parser<T>, from: readonly string[] | ArgsOf): ParameterDecorator {
  return parsedParam(({ args, root, context }) => {
    if (typeof from === 'function') {
      const value = from({ args: args as Record<string, unknown>, root: root as never });
      if (value === null) return null;
      return typeof parser === 'function' ? parser(value, context) : validate(parser, value);
    }
    return parseWith(parser, Object.fromEntries(from.map((key) => [key, (args as Record<string, unknown>)[key]])), context);
  });
}

/** A page's parsed arguments and the page asked for. */
export interface Paged<T> {
  input: T;
  page: PageRequest;
}

export interface PageOptions {
  /** The arguments are the members of the one `input` argument (declared by this decorator with this type). */
  input?: { typeFunc: ReturnTypeFunc; options?: ArgOptions };
  /** The page arguments besides first/after the schema reads (limit, page, offset, filters): every argument but first/after by default. */
  args?: readonly string[];
  /** The largest `first` (PAGE_SIZE_MAX by default). */
  maxFirst?: number;
}

/**
 * A page's arguments parsed (first/after left out) and the page they ask for (`pageRequest`: the
 * schema's problems first, then the paging rules'). With `input`, it declares the `input` argument;
 * otherwise the arguments are declared with `@Arg` beside it.
 */
export function ParsedPage<S extends z.ZodType>(schema: S, options: PageOptions = {}): ParameterDecorator {
  const { input, args: names, maxFirst } = options;
  return parsedParam(
    ({ args }) => {
      const raw = input ? members(args.input) : (args as Record<string, unknown>);
      const picked = names ? Object.fromEntries(names.map((key) => [key, raw[key]])) : without(raw, ['first', 'after']);
      const parsed = validate(schema, withoutNulls(picked)) as z.output<S> & { page: number; limit: number; offset?: number };
      return { input: parsed, page: pageRequest(parsed, raw as never, maxFirst) } satisfies Paged<z.output<S>>;
    },
    input ? { name: 'input', typeFunc: input.typeFunc, options: input.options } : undefined,
  );
}

/**
 * A subscription's `subscribe` given the caller and its parsed arguments: subscriptions start
 * outside type-graphql's resolver (no authChecker, no parameters), so this is their one gate.
 */
export function subscribeAs<S extends z.ZodType, R>(schema: S, start: (ctx: Context, viewer: Viewer, input: z.output<S>) => R): (data: { args: Record<string, unknown>; context: unknown }) => R {
  return ({ args, context }) => {
    const ctx = context as Context;
    return start(ctx, requireViewer(ctx.viewer), validate(schema, withoutNulls({ ...args })));
  };
}

/**
 * Refuses, when the schema is built, a method whose parsed input could be read before its caller is
 * decided: its `@CurrentViewer()` must come before every parsed parameter (parameters are resolved in
 * order, and the viewer's refusal must win over the input's, as the authChecker's does).
 */
export function checkResolverParams(resolvers: readonly Function[]): void { // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  const storage = getMetadataStorage();
  const classes = new Set<unknown>(resolvers);
  const byMethod = new Map<string, { index: number; resolver?: object }[]>();
  for (const param of storage.params) {
    if (!classes.has(param.target)) continue;
    const key = `${param.target.name}.${param.methodName}`;
    if (!byMethod.has(key)) byMethod.set(key, []);
    byMethod.get(key)!.push({ index: param.index, resolver: param.kind === 'custom' ? param.resolver : undefined });
  }
  for (const [method, params] of byMethod) {
    const viewer = params.find((p) => p.resolver && VIEWER.has(p.resolver));
    if (!viewer) continue;
    const early = params.find((p) => p.resolver && PARSED.has(p.resolver) && p.index < viewer.index);
    if (early) throw new Error(`${method}: @CurrentViewer() must come before the parsed parameters (parameter ${early.index} is parsed before the caller is decided)`);
  }
}

/** What a parser gives a resolver (`Parsed<typeof addCatalogInput>`). */
export type Parsed<S extends z.ZodType> = z.output<S>;

/**
 * A federation reference (`__resolveReference`) given the caller: `_entities` resolves outside
 * type-graphql's resolvers (no authChecker, no parameters), so this is its one gate
 * (UNAUTHENTICATED without a caller).
 */
export function withViewer<R, T>(resolve: (ref: R, ctx: Context, viewer: Viewer) => T): (ref: R, ctx: Context) => T {
  return (ref, ctx) => resolve(ref, ctx, requireViewer(ctx.viewer));
}
