/** Irregular plurals among likely collection names (json-server uses the `pluralize` package). */
const IRREGULAR: Record<string, string> = { person: 'people', child: 'children', man: 'men', woman: 'women', mouse: 'mice', goose: 'geese', tooth: 'teeth', foot: 'feet', datum: 'data', medium: 'media', index: 'indices', status: 'statuses', category: 'categories' };

/**
 * The collection a json-server foreign key names: `postId` → `posts`, `categoryId` → `categories`,
 * `personId` → `people` (json-server strips the `Id` suffix and pluralizes). English plurals of
 * regular nouns and a few common irregular ones; a name it misses stays a plain field.
 */
export function pluralOf(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular) return irregular;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The collection a field name refers to by json-server's convention, or undefined when it is no `…Id`. */
export function referencedCollection(field: string): string | undefined {
  const m = /^(.+)Id$/.exec(field);
  return m ? pluralOf(m[1]!) : undefined;
}
