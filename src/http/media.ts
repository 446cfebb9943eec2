import { Router } from 'express';
import type { AppDeps } from '../deps';
import { AppError } from '../common/errors';
import { toHttpError } from '../common/error-status';
import { sendError } from './rest/rest.router';
import { LocalRenderStorage } from '../jobs/storage';

/** What the media route asks of the render module (handed in by the composition root). */
export interface RenderFileLookup {
  /** When the run's video was deleted under the retention policy; null when it was not (or there is no such run). */
  outputExpiredAt(runId: string): Promise<Date | null>;
}

const FILE = /^([0-9a-f-]{36})\.(mp4|webm)$/;
const MIME: Record<string, string> = { mp4: 'video/mp4', webm: 'video/webm' };

/** Why a validly signed link finds no file: deleted under the retention policy, or never stored (canceled, re-rendered). */
async function missingFile(deps: AppDeps, lookup: RenderFileLookup, runId: string): Promise<AppError> {
  const expiredAt = await lookup.outputExpiredAt(runId);
  if (!expiredAt) return new AppError('NOT_FOUND', 'No such file');
  const hours = deps.config.render.retentionHours;
  return new AppError('NOT_FOUND', `This video was deleted on ${new Date(expiredAt).toISOString()}: videos are kept ${hours} hours after rendering. Render it again for a new one`);
}

/**
 * GET /media/renders/<runId>.<ext>?expires=&signature=: the rendered file behind a signed, expiring
 * link (no credentials: the link is one). Single byte ranges are served for video players.
 */
export function renderFilesRouter(deps: AppDeps, lookup: RenderFileLookup): Router {
  const router = Router();
  router.get('/media/renders/:file', async (req, res, next) => {
    res.locals.route = '/media/renders/:file';
    try {
      const match = FILE.exec(req.params.file);
      if (!match) throw new AppError('NOT_FOUND', 'No such file');
      const key = req.params.file;
      const verdict = deps.render.signer.verify(key, req.query.expires, req.query.signature);
      if (verdict === 'invalid') throw new AppError('FORBIDDEN', 'Invalid signature');
      if (verdict === 'expired') throw new AppError('FORBIDDEN', 'This link has expired: read the run again for a fresh one');
      const storage = deps.render.storage;
      // With object storage, links point at the bucket: the API serves no video bytes.
      if (!(storage instanceof LocalRenderStorage)) throw new AppError('NOT_FOUND', 'No such file');
      const stat = await storage.stat(key);
      if (!stat) throw await missingFile(deps, lookup, match[1]);
      res.setHeader('content-type', MIME[match[2]]);
      res.setHeader('accept-ranges', 'bytes');
      let range: { start: number; end: number } | undefined;
      const header = req.headers.range;
      if (header) {
        const m = /^bytes=(\d*)-(\d*)$/.exec(header);
        let start = m && m[1] ? Number(m[1]) : NaN;
        let end = m && m[2] ? Number(m[2]) : stat.bytes - 1;
        if (m && !m[1] && m[2]) {
          start = Math.max(0, stat.bytes - Number(m[2]));
          end = stat.bytes - 1;
        }
        end = Math.min(end, stat.bytes - 1);
        if (!m || Number.isNaN(start) || start > end) {
          res.status(416).setHeader('content-range', `bytes */${stat.bytes}`).end();
          return;
        }
        range = { start, end };
        res.status(206).setHeader('content-range', `bytes ${start}-${end}/${stat.bytes}`);
      }
      // The video itself may be kept a while by the one holding the link (errors, the 416 above included, stay no-store).
      res.setHeader('cache-control', 'private, max-age=300');
      res.setHeader('content-length', String(range ? range.end - range.start + 1 : stat.bytes));
      const stream = storage.read(key, range);
      stream.on('error', (error) => {
        if (!res.headersSent) next(error);
        else res.destroy(error);
      });
      stream.pipe(res);
    } catch (error) {
      const httpError = toHttpError(error);
      if (httpError.unexpected) deps.logger.error({ err: error }, 'unexpected error serving a render');
      sendError(res, httpError);
    }
  });
  return router;
}
