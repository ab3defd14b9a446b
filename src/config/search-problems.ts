/**
 * What is wrong with a resource's `search` list (the fields `q=` searches): each must be a declared
 * string or enum field, since `q=` is a case-insensitive substring match on text.
 */
export function searchProblems(rname: string, resource: { fields?: Record<string, { type?: string }>; search?: unknown }): string[] {
  if (!Array.isArray(resource.search)) return [];
  const problems: string[] = [];
  for (const name of resource.search as string[]) {
    const field = resource.fields?.[name];
    if (!field) problems.push(`resources.${rname}.search: no field named "${name}"`);
    else if (field.type !== 'string' && field.type !== 'enum') problems.push(`resources.${rname}.search: "${name}" is ${field.type}; q= searches string and enum fields only`);
  }
  return problems;
}
