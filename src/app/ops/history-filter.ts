import { BadRequestError } from '../../core/errors.js';
import type { HistoryFilter } from './history-document.js';

const PARAMETERS = ['since', 'endpoint', 'source'];

/** The query of `GET /metrics/history` as a filter; an unknown parameter, a repeated one or a bad `since` is a 400. */
export function historyFilter(query: Record<string, unknown>): HistoryFilter {
  const filter: HistoryFilter = {};
  for (const [name, value] of Object.entries(query ?? {})) {
    if (!PARAMETERS.includes(name)) throw new BadRequestError('invalid-query', `unknown query parameter "${name}"; use ${PARAMETERS.join(', ')}`);
    if (typeof value !== 'string') throw new BadRequestError('invalid-query', `"${name}" is given more than once; give it once`);
    if (name === 'since') {
      if (!/^\d{1,12}(\.\d{1,6})?$/.test(value)) throw new BadRequestError('invalid-query', `since: "${value}" is not a time in seconds since the epoch (such as 1767225600.5); give the last \`time\` you have`);
      filter.since = Number(value);
    } else if (!value) {
      throw new BadRequestError('invalid-query', `${name}: empty; give an ${name === 'endpoint' ? 'endpoint id' : 'inbound source name'}, or leave it out`);
    } else {
      filter[name as 'endpoint' | 'source'] = value;
    }
  }
  return filter;
}
