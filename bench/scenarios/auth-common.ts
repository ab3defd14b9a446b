import { CHARACTERS_RESOURCE } from '../data.js';

/** The characters resource with reads behind a scope, so the token is really checked on every read. */
export const PROTECTED_CHARACTERS = { ...CHARACTERS_RESOURCE, access: { read: ['characters:read'], write: 'public' } };

/** Why a server that answers an anonymous read of a protected record is not measuring auth, or undefined. */
export async function anonymousRefused(url: string): Promise<string | undefined> {
  const res = await fetch(`${url}/characters/1`);
  await res.arrayBuffer();
  return res.status === 401 ? undefined : `n/a (an anonymous read of a scoped resource got ${res.status}, not 401: access rules are not enforced yet)`;
}
