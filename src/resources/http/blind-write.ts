import type { FastifyRequest } from 'fastify';
import { DomainError, PreconditionRequiredError } from '../../core/errors.js';
import { storedReadOf } from '../../core/patch-reads.js';
import { toPlain, type StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { checkPreconditions, parseEtagList } from '../../http/conditional.js';

/*
 * A blind write: one whose writer may change a record but not read it (it passes the resource's
 * update or delete rule, not its read rule). Nothing it gets back may depend on what is stored
 * beyond what writing tells anyway (that the record exists), or write access would leak read access.
 */

/**
 * The preconditions of a PUT, PATCH or DELETE (checkPreconditions). A blind writer cannot hold the
 * record's ETag nor know when it changed, and a 412-or-2xx answer to a guess would tell it, so
 * If-Match and If-None-Match with entity tags, and If-Unmodified-Since, are 403 before anything is
 * compared; `*` only asks whether the record exists. Where a resource requires If-Match, a blind
 * writer cannot change a record at all (428, without the current ETag the detail gives others).
 */
export function checkWritePreconditions(request: Pick<FastifyRequest, 'headers'>, resource: ResourceDefinition, current: StoredRecord | undefined, blind: boolean): void {
  const { headers } = request;
  if (current && blind) {
    const tags = (name: 'if-match' | 'if-none-match') => headers[name] !== undefined && parseEtagList(headers[name]) !== '*';
    const compared = [tags('if-match') && 'If-Match', tags('if-none-match') && 'If-None-Match', headers['if-unmodified-since'] !== undefined && 'If-Unmodified-Since'].filter(Boolean);
    if (resource.requireIfMatch && !compared.length && !(headers['if-none-match'] !== undefined && parseEtagList(headers['if-none-match']) === '*')) {
      throw new PreconditionRequiredError(`${resource.name} requires If-Match with the ETag you last read, and this request may not read this record, so it cannot change it; use a token that may read ${resource.name}`);
    }
    if (compared.length) {
      const instead = resource.requireIfMatch ? `use a token that may read ${resource.name}` : 'send no precondition, or If-Match: *';
      throw new DomainError('read-not-allowed', `${compared.join(' and ')} would be compared with the stored record, which this request may not read; ${instead}`);
    }
  }
  checkPreconditions(headers, current, resource.requireIfMatch);
}

/** A blind writer's JSON Patch may not read stored values (storedReadOf): such an operation is 403. */
export function refuseStoredReads(resource: ResourceDefinition, patch: unknown): void {
  const read = storedReadOf(patch);
  if (read) {
    throw new DomainError('read-not-allowed', `${read}, and this request may not read ${resource.name} records; send a merge patch, or JSON Patch add/replace/remove of whole members`);
  }
}

/**
 * The document a patch applies to: the record's representation, without the server-managed
 * members a blind writer may not see (so a patch cannot compare them, and validation refuses any
 * it adds; see RecordValidator.prepare).
 */
export function patchTarget(current: StoredRecord, blind: boolean): Record<string, unknown> {
  const plain = toPlain(current);
  if (blind) {
    delete plain.version;
    delete plain.createdAt;
    delete plain.updatedAt;
  }
  return plain;
}
