// Sign in: paste an API key, or trade OAuth client credentials for an access token (the secret is
// sent once and not kept). The token goes to sessionStorage; nothing is a cookie.
import { ApiError, setToken, tokenFromClient } from '../api.js';
import { field, fill, h, problemBox, say } from '../widgets.js';

export function signInView(main) {
  const key = h('input', { type: 'password', name: 'api-key', autocomplete: 'off', required: true, spellcheck: 'false' });
  const keyErr = h('div');
  const keyForm = h('form', { class: 'card', 'aria-labelledby': 'signin-key' },
    h('h2', { id: 'signin-key' }, 'With an API key'),
    field('API key', key, { hint: 'Starts with rw_. Create one with `npx restwell keys create`.' }),
    keyErr,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in with the key'));
  keyForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = key.value.trim();
    if (!value) return fill(keyErr, problemBox({ problem: { title: 'Paste an API key first' } }));
    setToken(value, 'API key');
    done();
  });

  const id = h('input', { type: 'text', name: 'client_id', autocomplete: 'off', required: true, spellcheck: 'false' });
  const secret = h('input', { type: 'password', name: 'client_secret', autocomplete: 'off', required: true });
  const clientErr = h('div');
  const clientForm = h('form', { class: 'card', 'aria-labelledby': 'signin-client' },
    h('h2', { id: 'signin-client' }, 'With OAuth client credentials'),
    field('Client id', id),
    field('Client secret', secret, { hint: 'Exchanged for an access token (client credentials grant); only the token is kept, in this tab.' }),
    clientErr,
    h('button', { type: 'submit', class: 'primary' }, 'Get a token and sign in'));
  clientForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    fill(clientErr);
    try {
      const accessToken = await tokenFromClient(id.value.trim(), secret.value);
      secret.value = '';
      setToken(accessToken, `OAuth client ${id.value.trim()}`);
      done();
    } catch (err) {
      fill(clientErr, problemBox(err instanceof ApiError ? err : { message: String(err) }));
    }
  });

  fill(main,
    h('h1', {}, 'Sign in'),
    h('p', {}, 'The token stays in this browser tab (sessionStorage) and is sent as a bearer token; closing the tab or signing out forgets it. ',
      'Public collections can be browsed without signing in: ', h('a', { href: '#/' }, 'browse anonymously'), '.'),
    h('div', { class: 'cards' }, keyForm, clientForm));
  key.focus();
}

function done() {
  say('Signed in.');
  location.hash = '#/';
}
