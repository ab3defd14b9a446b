// Names for people: a collection's singular ("New character", not "New characters record"), from
// its name by a small English rule set, since the config names collections in the plural.

const IRREGULAR = { people: 'person', children: 'child', men: 'man', women: 'woman', mice: 'mouse', geese: 'goose', data: 'data', series: 'series', news: 'news', media: 'media' };

/** The singular of a plural English noun: characters→character, stories→story, boxes→box. */
export function singular(name) {
  const lower = name.toLowerCase();
  if (Object.hasOwn(IRREGULAR, lower)) return IRREGULAR[lower];
  if (/[^aeiou]ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|x|zz|ch|sh|us)es$/i.test(name)) return name.slice(0, -2);
  if (/(ss|us|is)$/i.test(name)) return name;
  if (/s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** Upper-cases the first letter (for the start of a label). */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** `a` or `an` before a word. */
export const article = (word) => (/^[aeiou]/i.test(word) ? 'an' : 'a');
