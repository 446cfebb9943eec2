import type { Context } from '../../request/context';
import { artistService } from '../artist';
import { ArtistResearchService } from './artist-research.service';
import { ResearchRepository } from './research.repository';
import { ResearchService } from './research.service';

/** The research service of a request: its storage, its loaders, and the providers, TTLs and budget it answers with. */
export const researchService = (ctx: Context) =>
  new ResearchService(new ResearchRepository(ctx.db), ctx.loaders, {
    providers: ctx.deps.providers,
    settings: ctx.deps.config.research,
    rateLimiter: ctx.deps.rateLimiter,
    log: ctx.log,
    clientIp: ctx.clientIp,
    calls: ctx.providerCalls,
    // The caller's usage view counts provider calls made and answers served from stored data (in memory: no statement).
    tally: ctx.viewer ? usageTally(ctx, ctx.viewer.accountId) : undefined,
  });

const usageTally = (ctx: Context, accountId: string) => (answer: 'provider' | 'stored') =>
  ctx.deps.usage.add(accountId, answer === 'provider' ? { providerCalls: 1 } : { storedAnswers: 1 });

/** The artist research links of a request, with the artist access rules and the research search they follow. */
export const artistResearchService = (ctx: Context) =>
  new ArtistResearchService(new ResearchRepository(ctx.db), ctx.loaders, artistService(ctx), researchService(ctx));
