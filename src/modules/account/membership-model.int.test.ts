import fc from 'fast-check';
import { createTestApp, TestApp } from '../../../test/app';
import { router } from '../../../test/demo';
import { addSong, createAccount, createCatalog, createOrganization, newIsrc } from '../../../test/factories';

/**
 * The membership lifecycle as a model (issues 24 and 30): random sequences of create organization,
 * invite, re-invite, accept, decline, remove, leave, delete organization, link catalog and unlink,
 * played against the real app. After every command, what each account reaches through the API
 * (its organizations and invitations, every catalog and its lyrics by reference, its own catalogs
 * over REST) equals what the model's memberships and links give it. A fixed seed and a modest
 * number of runs in CI; MEMBERSHIP_MODEL_RUNS=<n> (and MEMBERSHIP_MODEL_SEED) for a longer run.
 */

const PEOPLE = 3;
const MAX_ORGS = 3;

interface Link {
  catalog: string;
  account: string;
  /** The membership it was made through (it ends with it); null: held in the account's own right. */
  through: { org: string; member: string } | null;
  /** Creation order: an account holding a catalog in its own right may end links made after its own. */
  seq: number;
}
interface OrgModel {
  id: string;
  alive: boolean;
  members: Set<string>;
  /** Invitee → inviter. */
  invitations: Map<string, string>;
}
interface Model {
  people: string[];
  orgs: OrgModel[];
  links: Link[];
  /** Catalogs that exist, with their one song's lyrics. */
  catalogs: Map<string, string>;
  /** Every catalog made in this run, deleted ones included. */
  allCatalogs: string[];
  /** (org, account) pairs that were members or invited once: re-invitations. */
  former: Set<string>;
  seq: number;
  /** Commands observed so far. */
  steps: number;
}
interface Real {
  t: TestApp;
  headers: Map<string, Record<string, string>>;
}

// ---- what the model says ----

const aliveOrgsOf = (m: Model, x: string) => m.orgs.filter((o) => o.alive && o.members.has(x));
const isMember = (o: OrgModel, x: string) => o.alive && o.members.has(x);
function reachedAccounts(m: Model, x: string): Set<string> {
  const reached = new Set([x]);
  for (const o of aliveOrgsOf(m, x)) {
    reached.add(o.id);
    for (const member of o.members) reached.add(member);
  }
  return reached;
}
const reachesCatalog = (m: Model, x: string, c: string) => m.catalogs.has(c) && m.links.some((l) => l.catalog === c && reachedAccounts(m, x).has(l.account));
const holdersOf = (m: Model, c: string) => new Set(m.links.filter((l) => l.catalog === c && !l.through).map((l) => l.account));

/** Drops links (and with them catalogs left with none), as the foreign keys and trigger do. */
function dropLinks(m: Model, gone: (l: Link) => boolean): void {
  m.links = m.links.filter((l) => !gone(l));
  for (const c of [...m.catalogs.keys()]) if (!m.links.some((l) => l.catalog === c)) m.catalogs.delete(c);
}

/** Ends x's membership of o: the invitations x made and the links made through it go with it. Answers them. */
function endMembership(m: Model, o: OrgModel, x: string) {
  o.members.delete(x);
  const invitations = [...o.invitations].filter(([, inviter]) => inviter === x).map(([invitee]) => invitee).sort();
  for (const invitee of invitations) o.invitations.delete(invitee);
  const links = m.links.filter((l) => l.through?.org === o.id && l.through.member === x);
  dropLinks(m, (l) => links.includes(l));
  return { invitations, catalog_links: links.map((l) => ({ catalog_id: l.catalog, account_id: l.account })).sort(byLink) };
}
const byLink = (a: { catalog_id: string; account_id: string }, b: { catalog_id: string; account_id: string }) =>
  a.catalog_id.localeCompare(b.catalog_id) || a.account_id.localeCompare(b.account_id);

// ---- what the API shows ----

const OBSERVE = `query Observe($reps: [_Any!]!) {
  me { organizations { id } invitations { organization { id } } }
  _entities(representations: $reps) { ... on Catalog { id songs { items { lyrics } } } ... on Organization { id } }
}`;

/** Every account's reach through the API equals the model's. */
async function observe(m: Model, r: Real): Promise<void> {
  m.steps += 1;
  const reps = [...m.allCatalogs.map((id) => ({ __typename: 'Catalog', id })), ...m.orgs.map((o) => ({ __typename: 'Organization', id: o.id }))];
  for (const x of m.people) {
    const headers = r.headers.get(x)!;
    const res = await r.t.graphql(OBSERVE, { reps }, { ...headers, ...router });
    expect(res.body.errors).toBeUndefined();
    const seen = {
      organizations: res.body.data.me.organizations.map((o: { id: string }) => o.id).sort(),
      invitations: res.body.data.me.invitations.map((i: { organization: { id: string } }) => i.organization.id).sort(),
      entities: res.body.data._entities,
    };
    const expected = {
      organizations: aliveOrgsOf(m, x).map((o) => o.id).sort(),
      invitations: m.orgs.filter((o) => o.alive && o.invitations.has(x)).map((o) => o.id).sort(),
      entities: [
        ...m.allCatalogs.map((c) => (reachesCatalog(m, x, c) ? { id: c, songs: { items: [{ lyrics: m.catalogs.get(c) }] } } : null)),
        ...m.orgs.map((o) => (isMember(o, x) ? { id: o.id } : null)),
      ],
    };
    expect({ account: x, ...seen }).toEqual({ account: x, ...expected });
    // One account a step over REST too (its own catalogs), in turn: the graph above covers every account.
    if (x !== m.people[m.steps % m.people.length]) continue;
    const own = await r.t.http().get('/api/catalogs').set(headers);
    const linked = [...new Set(m.links.filter((l) => l.account === x).map((l) => l.catalog))].sort();
    expect({ account: x, catalogs: own.body.catalogs.map((c: { id: string }) => c.id).sort() }).toEqual({ account: x, catalogs: linked });
  }
}

// ---- commands ----

type Cmd = fc.AsyncCommand<Model, Real>;
const person = (m: Model, i: number) => m.people[i % m.people.length];
const org = (m: Model, k: number) => m.orgs[k % m.orgs.length];
/** The acting person: with `insider`, a current member of the organization when it has one (else anyone), so more commands are allowed ones. */
const actor = (m: Model, i: number, o: OrgModel | undefined, insider: boolean) => {
  const members = o && insider ? [...o.members].sort() : [];
  return members.length ? members[i % members.length] : person(m, i);
};

/** Runs the request, checks its status against the model's, applies the model's change, then observes. */
async function step(m: Model, r: Real, send: () => Promise<{ status: number; body: Record<string, unknown> }>, expected: number, apply?: (body: Record<string, unknown>) => void) {
  const res = await send();
  expect({ status: res.status, code: res.body.code }).toMatchObject({ status: expected });
  if (expected === 200) apply?.(res.body);
  await observe(m, r);
}

class CreateOrg implements Cmd {
  constructor(readonly by: number) {}
  check = (m: Model) => m.orgs.length < MAX_ORGS;
  async run(m: Model, r: Real) {
    const p = person(m, this.by);
    const h = r.headers.get(p)!;
    const created = await r.t.http().post('/api/organizations').set(h).send({ name: `Model org ${m.orgs.length}` });
    expect(created.status).toBe(200);
    const id: string = created.body.organization.id;
    m.orgs.push({ id, alive: true, members: new Set([p]), invitations: new Map() });
    const catalog = await r.t.http().post('/api/catalogs').set(h).send({ name: `Catalog of ${id}`, account_id: id });
    expect(catalog.status).toBe(200);
    const lyrics = `lyrics of ${id}`;
    const song = await r.t.http().post('/api/catalogs/songs').set(h).send({ songs: [{ catalog_id: catalog.body.catalog.id, isrc: newIsrc(), name: 'Org song', lyrics }] });
    expect(song.status).toBe(200);
    m.links.push({ catalog: catalog.body.catalog.id, account: id, through: null, seq: (m.seq += 1) });
    m.catalogs.set(catalog.body.catalog.id, lyrics);
    m.allCatalogs.push(catalog.body.catalog.id);
    await observe(m, r);
  }
  toString = () => `createOrg(by P${this.by})`;
}

class Invite implements Cmd {
  constructor(
    readonly by: number,
    readonly insider: boolean,
    readonly k: number,
    readonly invitee: number,
    readonly again = false,
  ) {}
  check = (m: Model) =>
    m.orgs.length > 0 &&
    actor(m, this.by, org(m, this.k), this.insider) !== person(m, this.invitee) &&
    (!this.again || m.former.has(`${org(m, this.k).id}:${person(m, this.invitee)}`));
  async run(m: Model, r: Real) {
    const [p, o, q] = [actor(m, this.by, org(m, this.k), this.insider), org(m, this.k), person(m, this.invitee)];
    const expected = isMember(o, p) ? 200 : 403;
    await step(m, r, () => r.t.http().post(`/api/organizations/${o.id}/members`).set(r.headers.get(p)!).send({ account_id: q }), expected, () => {
      if (!o.members.has(q) && !o.invitations.has(q)) o.invitations.set(q, p);
      m.former.add(`${o.id}:${q}`);
    });
  }
  toString = () => `${this.again ? 're-invite' : 'invite'}(org ${this.k}, by ${this.insider ? 'member' : 'P'}${this.by}, P${this.invitee})`;
}

class Accept implements Cmd {
  constructor(
    readonly who: number,
    readonly k: number,
  ) {}
  check = (m: Model) => m.orgs.length > 0;
  async run(m: Model, r: Real) {
    const [q, o] = [person(m, this.who), org(m, this.k)];
    const expected = isMember(o, q) || (o.alive && o.invitations.has(q)) ? 200 : 403;
    await step(m, r, () => r.t.http().post(`/api/organizations/${o.id}/members`).set(r.headers.get(q)!).send({ account_id: q }), expected, () => {
      o.invitations.delete(q);
      o.members.add(q);
    });
  }
  toString = () => `accept(P${this.who}, org ${this.k})`;
}

/** Decline (when invited) and leave (when a member) are the same request: removing oneself. */
class RemoveSelf implements Cmd {
  constructor(
    readonly who: number,
    readonly k: number,
    readonly leave: boolean,
  ) {}
  check = (m: Model) => m.orgs.length > 0;
  async run(m: Model, r: Real) {
    const [q, o] = [person(m, this.who), org(m, this.k)];
    const expected = isMember(o, q) || (o.alive && o.invitations.has(q)) ? 200 : 403;
    await step(m, r, () => r.t.http().delete(`/api/organizations/${o.id}/members/${q}`).set(r.headers.get(q)!), expected, (body) => {
      if (o.members.has(q)) expect(body.revoked).toEqual({ membership: true, invitation: false, ...endMembership(m, o, q) });
      else {
        o.invitations.delete(q);
        expect(body.revoked).toEqual({ membership: false, invitation: true, invitations: [], catalog_links: [] });
      }
    });
  }
  toString = () => `${this.leave ? 'leave' : 'decline'}(P${this.who}, org ${this.k})`;
}

class Remove implements Cmd {
  constructor(
    readonly by: number,
    readonly insider: boolean,
    readonly k: number,
    readonly target: number,
  ) {}
  check = (m: Model) => m.orgs.length > 0 && actor(m, this.by, org(m, this.k), this.insider) !== person(m, this.target);
  async run(m: Model, r: Real) {
    const [p, o, q] = [actor(m, this.by, org(m, this.k), this.insider), org(m, this.k), person(m, this.target)];
    const expected = !isMember(o, p) ? 403 : o.members.has(q) || o.invitations.has(q) ? 200 : 404;
    await step(m, r, () => r.t.http().delete(`/api/organizations/${o.id}/members/${q}`).set(r.headers.get(p)!), expected, (body) => {
      if (o.members.has(q)) expect(body.revoked).toEqual({ membership: true, invitation: false, ...endMembership(m, o, q) });
      else {
        o.invitations.delete(q);
        expect(body.revoked).toEqual({ membership: false, invitation: true, invitations: [], catalog_links: [] });
      }
    });
  }
  toString = () => `remove(org ${this.k}, by ${this.insider ? 'member' : 'P'}${this.by}, P${this.target})`;
}

class DeleteOrg implements Cmd {
  constructor(
    readonly by: number,
    readonly insider: boolean,
    readonly k: number,
  ) {}
  check = (m: Model) => m.orgs.length > 0;
  async run(m: Model, r: Real) {
    const [p, o] = [actor(m, this.by, org(m, this.k), this.insider), org(m, this.k)];
    await step(m, r, () => r.t.http().delete(`/api/organizations/${o.id}`).set(r.headers.get(p)!), isMember(o, p) ? 200 : 403, () => {
      o.alive = false;
      o.members.clear();
      o.invitations.clear();
      dropLinks(m, (l) => l.account === o.id || l.through?.org === o.id);
    });
  }
  toString = () => `deleteOrg(org ${this.k}, by ${this.insider ? 'member' : 'P'}${this.by})`;
}

class LinkCatalog implements Cmd {
  constructor(
    readonly by: number,
    readonly insider: boolean,
    readonly c: number,
    /** The organization whose members act (with `insider`), and the target when `toOrg`. */
    readonly k: number,
    readonly toOrg: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const o = m.orgs.length ? org(m, this.k) : undefined;
    const p = actor(m, this.by, o, this.insider);
    const c = m.allCatalogs[this.c % m.allCatalogs.length];
    const target = this.toOrg ? o : undefined;
    const targetId = target?.id ?? p;
    let expected = 200;
    let through: string | null = null;
    if (!m.catalogs.has(c)) expected = 404;
    else if (!reachesCatalog(m, p, c)) expected = 403;
    else if (target && !isMember(target, p)) expected = 403;
    else {
      const holders = holdersOf(m, c);
      if (!holders.has(targetId)) {
        const holderOrg = holders.has(p) ? null : (aliveOrgsOf(m, p).find((o) => holders.has(o.id))?.id ?? undefined);
        if (holderOrg === undefined || (target && holderOrg)) expected = 403;
        else through = target ? target.id : holderOrg;
      }
    }
    await step(m, r, () => r.t.http().post('/api/catalogs').set(r.headers.get(p)!).send(target ? { catalog_id: c, account_id: target.id } : { catalog_id: c }), expected, () => {
      if (through && !m.links.some((l) => l.catalog === c && l.account === targetId)) {
        m.links.push({ catalog: c, account: targetId, through: { org: through, member: p }, seq: (m.seq += 1) });
      }
    });
  }
  toString = () => `link(catalog ${this.c}, by ${this.insider ? `member of org ${this.k} #` : 'P'}${this.by}, to ${this.toOrg ? `org ${this.k}` : 'self'})`;
}

class Unlink implements Cmd {
  constructor(
    readonly by: number,
    readonly c: number,
    /** An account index: people first, then organizations. */
    readonly account: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const p = person(m, this.by);
    const c = m.allCatalogs[this.c % m.allCatalogs.length];
    const accounts = [...m.people, ...m.orgs.map((o) => o.id)];
    const a = accounts[this.account % accounts.length];
    const link = m.links.find((l) => l.catalog === c && l.account === a);
    const actors = new Set([p, ...aliveOrgsOf(m, p).map((o) => o.id)]);
    const asHolder = !!link && m.links.some((l) => l.catalog === c && !l.through && actors.has(l.account) && l.seq < link.seq);
    const expected = reachedAccounts(m, p).has(a) || asHolder ? 200 : 403;
    await step(m, r, () => r.t.http().delete('/api/catalogs').set(r.headers.get(p)!).send({ catalogs: [{ catalog_id: c, account_id: a }] }), expected, () =>
      dropLinks(m, (l) => l === link),
    );
  }
  toString = () => `unlink(catalog ${this.c}, by P${this.by}, account ${this.account})`;
}

const i = fc.nat({ max: PEOPLE - 1 });
const k = fc.nat({ max: MAX_ORGS - 1 });
const anyCatalog = fc.nat({ max: PEOPLE + MAX_ORGS - 1 });
const insider = fc.boolean();
const commands = [
  i.map((by) => new CreateOrg(by)),
  fc.tuple(i, insider, k, i).map(([by, ins, o, q]) => new Invite(by, ins, o, q)),
  fc.tuple(i, insider, k, i).map(([by, ins, o, q]) => new Invite(by, ins, o, q, true)),
  fc.tuple(i, k).map(([q, o]) => new Accept(q, o)),
  fc.tuple(i, k).map(([q, o]) => new Accept(q, o)),
  fc.tuple(i, k).map(([q, o]) => new RemoveSelf(q, o, false)),
  fc.tuple(i, k).map(([q, o]) => new RemoveSelf(q, o, true)),
  fc.tuple(i, insider, k, i).map(([by, ins, o, q]) => new Remove(by, ins, o, q)),
  // Rarely by a member: a deleted organization leaves little to play with.
  fc.tuple(i, fc.nat({ max: 3 }).map((n) => n === 0), k).map(([by, ins, o]) => new DeleteOrg(by, ins, o)),
  fc.tuple(i, insider, anyCatalog, k, fc.boolean()).map(([by, ins, c, o, toOrg]) => new LinkCatalog(by, ins, c, o, toOrg)),
  fc.tuple(i, insider, anyCatalog, k, fc.boolean()).map(([by, ins, c, o, toOrg]) => new LinkCatalog(by, ins, c, o, toOrg)),
  fc.tuple(i, anyCatalog, fc.nat({ max: PEOPLE + MAX_ORGS - 1 })).map(([by, c, a]) => new Unlink(by, c, a)),
];

describe('membership lifecycle model (fast-check commands over the real API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const runs = Number(process.env.MEMBERSHIP_MODEL_RUNS ?? 8);
  const seed = Number(process.env.MEMBERSHIP_MODEL_SEED ?? 2430);

  it(`reach always equals the model's memberships and links (${runs} runs, seed ${seed})`, async () => {
    /** Fresh people, each with a catalog of their own holding one song: every run starts from its own world. */
    const setup = async () => {
      const model: Model = { people: [], orgs: [], links: [], catalogs: new Map(), allCatalogs: [], former: new Set(), seq: 0, steps: 0 };
      const real: Real = { t, headers: new Map() };
      for (let n = 0; n < PEOPLE; n += 1) {
        const created = await createAccount(t.orm, { name: `P${n}` });
        const id = created.account.id;
        const catalog = await createCatalog(t.orm, { linkedTo: [id] });
        const lyrics = `lyrics of P${n} ${id.slice(0, 8)}`;
        await addSong(t.orm, catalog.id, { lyrics });
        model.people.push(id);
        real.headers.set(id, created.headers);
        model.links.push({ catalog: catalog.id, account: id, through: null, seq: (model.seq += 1) });
        model.catalogs.set(catalog.id, lyrics);
        model.allCatalogs.push(catalog.id);
      }
      // A first organization (P0 and P1 members) with its catalog, so that most commands have something to act on.
      const first = await createOrganization(t.orm, 'Model org', model.people.slice(0, 2));
      const catalog = await createCatalog(t.orm, { linkedTo: [first.id] });
      const lyrics = `lyrics of ${first.id}`;
      await addSong(t.orm, catalog.id, { lyrics });
      model.orgs.push({ id: first.id, alive: true, members: new Set(model.people.slice(0, 2)), invitations: new Map() });
      model.links.push({ catalog: catalog.id, account: first.id, through: null, seq: (model.seq += 1) });
      model.catalogs.set(catalog.id, lyrics);
      model.allCatalogs.push(catalog.id);
      return { model, real };
    };
    await fc.assert(
      // Sequences of 12 to 20 commands (fc.commands draws many short ones); a failure shrinks to a shorter sequence.
      fc.asyncProperty(fc.array(fc.oneof(...commands), { minLength: 12, maxLength: 20 }), (cmds) => fc.asyncModelRun(setup, cmds)),
      { numRuns: runs, seed, endOnFailure: true },
    );
  }, 600_000);
});
