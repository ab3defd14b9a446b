import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const FIRST = [
  'Abe', 'Agnes', 'Apu', 'Barney', 'Bart', 'Carl', 'Cletus', 'Clancy', 'Comic', 'Dewey', 'Edna', 'Fat', 'Gil',
  'Hans', 'Helen', 'Homer', 'Jasper', 'Jimbo', 'Kent', 'Krusty', 'Lenny', 'Lisa', 'Maggie', 'Marge', 'Martin',
  'Milhouse', 'Moe', 'Ned', 'Nelson', 'Otto', 'Patty', 'Ralph', 'Rod', 'Selma', 'Seymour', 'Sideshow', 'Todd',
  'Troy', 'Uter', 'Waylon', 'Willie', 'Zia',
];
const LAST = ['Simpson', 'Flanders', 'Szyslak', 'Gumble', 'Wiggum', 'Burns', 'Smithers', 'Carlson', 'Leonard', 'Van Houten', 'Muntz', 'Skinner', 'Krabappel', 'Bouvier', 'Lovejoy', 'Hibbert', 'Nahasapeemapetilon', 'McClure', 'Terwilliger', 'Brockman'];

/**
 * The name of seeded character `i` (1-based): unique, with first letters spread over the alphabet so
 * `name[startsWith]=C` selects a few percent of the rows, and in no particular order by id.
 */
export function characterName(i: number): string {
  return `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`;
}

/** The phone number of seeded character `i`. */
export function characterNumber(i: number): string {
  return `+1-555-${String(i).padStart(7, '0')}`;
}

/** The `characters` resource as every Restwell row of the bench declares it (the demo's, made public). */
export const CHARACTERS_RESOURCE = {
  fields: {
    name: { type: 'string', required: true, unique: true, maxLength: 200 },
    number: { type: 'string', maxLength: 40 },
  },
  // Explicit, so the unauthenticated rows keep working when the demo starts requiring a write scope.
  access: { read: 'public', write: 'public' },
};

/** Writes a Restwell config file: the bench `characters` resource plus `extra` top-level keys. */
export function writeRestwellConfig(path: string, extra: Record<string, unknown> = {}, resource: Record<string, unknown> = CHARACTERS_RESOURCE): string {
  // The per-client rate limit (issue 5) would turn a load test into a stream of 429s.
  const config = { resources: { characters: resource }, auth: { rateLimit: false }, ...extra };
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

/** Writes json-server's db.json with the same `count` characters Restwell is seeded with. */
export function writeJsonServerDb(path: string, count: number): string {
  mkdirSync(dirname(path), { recursive: true });
  const characters = Array.from({ length: count }, (_, k) => ({ id: k + 1, name: characterName(k + 1), number: characterNumber(k + 1) }));
  writeFileSync(path, JSON.stringify({ characters }, null, 2));
  return path;
}

let posted = 0;

/** A POST body whose `name` never repeats within the process (Restwell's name is unique: a repeat is a 409). */
export function uniqueCharacterBody(): string {
  posted += 1;
  return JSON.stringify({ name: `bench ${process.pid} ${posted}`, number: '+1-555-0199' });
}
