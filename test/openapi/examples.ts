import { DEMO } from '../../src/db/seeders/demo.data';
import { as } from '../demo';

/**
 * What a request built from the OpenAPI document cannot invent: ids of demo rows for path
 * parameters, and required inputs whose valid values a schema alone does not give (a pattern, an
 * id of a row the caller may reach). Everything else is built from the document itself.
 *
 * Keys are `METHOD /api/path` in the document's form (`{param}`). A documented path parameter
 * that has no value here or in PARAMS fails the test, naming it.
 */
export interface RouteExample {
  /** Credentials (default: Nora, member of Northwind Records, with roster artists and a session). */
  as?: Record<string, string>;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Expected status (default: the documented success status). */
  status?: number;
}

/** Path parameter values by parameter name, for routes without their own entry. */
export const PARAMS: Record<string, string> = {
  sessionId: DEMO.sessionNora,
  chatId: DEMO.chatPlan,
  accountId: DEMO.liam,
};

export const ROUTES: Record<string, RouteExample> = {
  'POST /api/organizations': { as: as.otto, body: { name: 'Documented Org' } },
  'PUT /api/agents/templates/{id}/favorite': { params: { id: DEMO.templatePublic } },
  'PATCH /api/agents/templates/{id}': { params: { id: DEMO.templatePrivate } },
  'DELETE /api/agents/templates/{id}': { params: { id: DEMO.templatePrivate } },
};
