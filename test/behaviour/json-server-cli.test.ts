import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { createServer } from '../../src/app/server.js';
import { resolveConfig } from '../../src/config/load.js';
import { bearer, engines } from '../../src/test-support/test-server.js';
import { ROOT, startServe } from '../support-process.js';

const root = ROOT;
/** `restwell import …` as the README runs it: the published entry point, in its own process. */
const restwell = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [join(root, 'bin/restwell.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });

const DB = { posts: [{ id: 1, title: 'hello', authorId: 1 }, { id: 2, title: 'again', authorId: 1 }], authors: [{ id: 1, name: 'Ada' }], profile: { name: 'x' } };

function workdir(data: unknown = DB, text?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-import-'));
  writeFileSync(join(dir, 'db.json'), text ?? JSON.stringify(data));
  return dir;
}

describe('restwell import', () => {
  it('imports, prints what it inferred and a summary per collection, and writes db.restwell.yaml next to the file', () => {
    const dir = workdir();
    const res = restwell(dir, 'import', 'db.json', '--db', 'data/x.db');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stderr, /posts \(2 rows, integer ids\): title string\*, authorId → authors\*/);
    assert.match(res.stderr, /^posts: 2 rows in \d+\.\d\d s$/m);
    assert.match(res.stderr, /^authors: 1 row in \d+\.\d\d s$/m);
    assert.match(res.stderr, /profile \(singular object\): name string\*/);
    assert.match(res.stderr, /serve --config db\.restwell\.yaml --db data\/x\.db/);
    const config = parse(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8'));
    assert.deepEqual(config.resources.posts.fields.authorId, { type: 'reference', to: 'authors', required: true });
    assert.equal(config.resources.posts.access, undefined, 'the default access applies');
    assert.equal(config.database, undefined);
  });

  it('imports json-server string ids as id: string, kept exactly, and writes id: string to the config', () => {
    const dir = workdir({ posts: [{ id: 'a3f1', title: 'hex' }, { id: 'Jz5f9_a', title: 'nanoid' }], comments: [{ id: 'c-1', postId: 'Jz5f9_a' }] });
    const res = restwell(dir, 'import', 'db.json', '--db', 'x.db');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stderr, /posts \(2 rows, string ids\): title string\*/);
    assert.match(res.stderr, /comments \(1 row, string ids\): postId → posts\*/);
    const config = parse(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8'));
    assert.equal(config.resources.posts.id, 'string');
    assert.deepEqual(config.resources.comments.fields.postId, { type: 'reference', to: 'posts', required: true });
  });

  it('does nothing for an unchanged file, imports a changed one again when the API wrote nothing since, and refuses another file into collections that hold records unless --force', () => {
    const dir = workdir();
    assert.equal(restwell(dir, 'import', 'db.json', '--db', 'x.db').status, 0);
    const same = restwell(dir, 'import', 'db.json', '--db', 'x.db');
    assert.equal(same.status, 0, same.stderr);
    assert.match(same.stderr, /db\.json is already imported and unchanged since; nothing to do/);
    writeFileSync(join(dir, 'db.json'), JSON.stringify({ ...DB, posts: [{ id: 5, title: 'only', authorId: 1 }] }));
    const again = restwell(dir, 'import', 'db.json', '--db', 'x.db');
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /^posts: 1 row in/m);
  });

  it('refuses a file never imported into collections that hold records, counting them, unless --force', () => {
    const dir = workdir();
    assert.equal(restwell(dir, 'import', 'db.json', '--db', 'x.db').status, 0);
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ ...DB, posts: [{ id: 5, title: 'only', authorId: 1 }] }));
    const refused = restwell(dir, 'import', 'other.json', '--db', 'x.db');
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /restwell: cannot import other\.json: authors, posts(, profile)? already hold records this file did not put there \(authors: 1, posts: 2(, profile: 1)?\); nothing was imported \(--force replaces their records\)/);
    const forced = restwell(dir, 'import', 'other.json', '--db', 'x.db', '--force');
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(forced.stderr, /^posts: 1 row in/m);
  });

  it('says in one line when the database refuses a replacing load', async () => {
    const dir = workdir();
    assert.equal(restwell(dir, 'import', 'db.json', '--db', 'x.db').status, 0);
    // Another config on the same database adds reviews, one of which refers to post 1.
    const config = parse(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8'));
    config.resources.reviews = { fields: { postId: { type: 'reference', to: 'posts' } } };
    const other = await createServer(resolveConfig(config, { env: {}, overrides: { database: join(dir, 'x.db') } }), { logger: false });
    const review = await other.app.inject({ method: 'POST', url: '/reviews', headers: { ...(await bearer(other)), 'content-type': 'application/json' }, payload: { postId: 1 } });
    assert.equal(review.statusCode, 201, review.body);
    await other.close();
    const res = restwell(dir, 'import', 'db.json', '--db', 'x.db', '--force');
    assert.equal(res.status, 1);
    assert.match(res.stderr, /^restwell: cannot import db\.json: the database refused it, so nothing was imported: .*FOREIGN KEY/m);
    assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
  });

  it('writes a .json config as JSON', () => {
    const dir = workdir();
    const res = restwell(dir, 'import', 'db.json', '--db', 'x.db', '--config', 'out.json');
    assert.equal(res.status, 0, res.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).resources.authors, { fields: { name: { type: 'string', required: true } } });
  });

  it('refuses to overwrite a config file with other content unless --force', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'mine.yaml'), 'resources: {}\n');
    const res = restwell(dir, 'import', 'db.json', '--db', 'x.db', '--config', 'mine.yaml');
    assert.equal(res.status, 1);
    assert.match(res.stderr, /mine\.yaml exists with other content; nothing was imported/);
    assert.equal(existsSync(join(dir, 'x.db')), false, 'no database was created');
  });

  for (const [what, text, message] of [
    ['invalid JSON', '{"posts": [', /^restwell: cannot import db\.json: it is not valid JSON: /],
    ['an array', '[{"id": 1}]', /^restwell: cannot import db\.json: the file must hold a JSON object .* it holds an array\n$/],
    ['nothing to serve', '{"$schema": "./schema.json"}', /^restwell: cannot import db\.json: it holds nothing to serve/],
    ['string ids that are not URL-safe', '{"posts": [{"id": "a1b2"}, {"id": "a/b"}]}', /^restwell: cannot import db\.json: posts: row 2 has id "a\/b", which Restwell cannot keep: string ids are 1–64 characters/],
    ['a reserved collection name', '{"events": [{"id": 1}]}', /^restwell: cannot import db\.json: events: "events" is a path the server itself serves; choose another name\n$/],
  ] as const) {
    it(`refuses ${what} with one clear message, exit code 1, and writes nothing`, () => {
      const dir = workdir(undefined, text);
      const res = restwell(dir, 'import', 'db.json', '--db', 'x.db');
      assert.equal(res.status, 1);
      assert.match(res.stderr, message);
      assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(existsSync(join(dir, 'x.db')), false);
      assert.equal(existsSync(join(dir, 'db.restwell.yaml')), false);
    });
  }
});

for (const engine of engines) {
  describe(`restwell import holds the file to valid Unicode and unique member names (${engine.name})`, () => {
    const cases: Array<[string, Buffer, RegExp]> = [
      ['invalid UTF-8 bytes', Buffer.concat([Buffer.from('{"posts": [{"id": 1, "title": "ok"}, {"id": 7, "title": "caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]),
        /^restwell: cannot import db\.json: posts: row 2 \(id 7\): title is not valid UTF-8 \(the first bad byte is at offset 60\)/],
      ['an encoded surrogate (ED A0 80)', Buffer.concat([Buffer.from('{"posts": [{"id": "a", "tags": ["x", "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"]}]}')]),
        /^restwell: cannot import db\.json: posts: row 1 \(id "a"\): tags\/1 is not valid UTF-8/],
      ['a lone surrogate escape', Buffer.from('{"posts": [{"id": 1, "title": "a"}, {"id": 2, "title": "a"}, {"id": 3, "title": "x\\udc00"}]}'),
        /^restwell: cannot import db\.json: posts: row 3 \(id 3\): title holds an unpaired UTF-16 surrogate/],
      ['a lone surrogate in a member name', Buffer.from('{"posts": [{"id": 1, "\\ud800": "a"}]}'),
        /^restwell: cannot import db\.json: posts: row 1 \(id 1\): \\uD800 holds an unpaired UTF-16 surrogate/],
      ['a repeated member name in a row', Buffer.from('{"posts": [{"id": 1, "title": "a"}, {"id": 2, "title": "b", "title": "c"}]}'),
        /^restwell: cannot import db\.json: posts: row 2 \(id 2\): title repeats a member name of its object/],
      ['a repeated collection', Buffer.from('{"posts": [{"id": 1}], "posts": [{"id": 2}]}'),
        /^restwell: cannot import db\.json: posts repeats a member name of its object/],
    ];
    for (const [what, bytes, message] of cases) {
      it(`refuses ${what} in one line naming the collection and row, and writes nothing`, () => {
        const dir = workdir();
        writeFileSync(join(dir, 'db.json'), bytes);
        const db = engine.name === 'sqlite' ? join(dir, 'x.db') : engine.freshUrl();
        const res = restwell(dir, 'import', 'db.json', '--db', db);
        assert.equal(res.status, 1, res.stderr);
        assert.match(res.stderr, message);
        assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
        assert.equal(existsSync(join(dir, 'db.restwell.yaml')), false);
        if (engine.name === 'sqlite') assert.equal(existsSync(db), false);
      });
    }

    it('imports text with surrogate pairs and a BOM, and serves it back exactly', async () => {
      const dir = workdir();
      writeFileSync(join(dir, 'db.json'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"posts": [{"id": 1, "title": "\\ud83d\\ude00 caf\u00e9 \ud83c\udf7a"}]}')]));
      const db = engine.name === 'sqlite' ? join(dir, 'x.db') : engine.freshUrl();
      const res = restwell(dir, 'import', 'db.json', '--db', db);
      assert.equal(res.status, 0, res.stderr);
      const config = parse(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8'));
      const server = await createServer(resolveConfig(config, { env: {}, overrides: { database: db } }), { logger: false });
      try {
        assert.equal((await server.app.inject({ method: 'GET', url: '/posts/1' })).json().title, '😀 café 🍺');
      } finally {
        await server.close();
      }
    });
  });
}

describe('restwell serve db.json', () => {
  it('never overwrites a config file it did not write', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'db.restwell.yaml'), 'resources: {}\n');
    const res = restwell(dir, 'serve', 'db.json', '--db', 'x.db', '--port', '0');
    assert.equal(res.status, 1);
    assert.match(res.stderr, /restwell: cannot import db\.json: db\.restwell\.yaml exists with other content; nothing was imported/);
    assert.equal(readFileSync(join(dir, 'db.restwell.yaml'), 'utf8'), 'resources: {}\n');
  });

  it('imports on first start, serves the records, and imports again only when the file changed', async () => {
    const dir = workdir();
    const file = join(dir, 'db.json');
    const db = join(dir, 'serve.db');
    const first = await startServe([file, '--db', db]);
    try {
      assert.match(first.output(), /^posts: 2 rows in/m);
      assert.match(first.output(), /Writes go to the database \(.*serve\.db\), not back to .*db\.json/);
      const res = await fetch(`${first.url}/posts/2`);
      assert.equal(((await res.json()) as { title: string }).title, 'again');
    } finally {
      await first.stop();
    }
    const unchanged = await startServe([file, '--db', db]);
    try {
      assert.match(unchanged.output(), /is unchanged since its import at .*: serving what the database holds/);
      assert.doesNotMatch(unchanged.output(), /rows in/);
    } finally {
      await unchanged.stop();
    }
    writeFileSync(file, JSON.stringify({ ...DB, posts: [{ id: 9, title: 'changed', authorId: 1 }] }));
    const changed = await startServe([file, '--db', db]);
    try {
      assert.match(changed.output(), /changed since its import at .*: importing it again/);
      assert.equal((await fetch(`${changed.url}/posts/2`)).status, 404);
      assert.equal(((await (await fetch(`${changed.url}/posts/9`)).json()) as { title: string }).title, 'changed');
    } finally {
      await changed.stop();
    }
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).posts, [{ id: 9, title: 'changed', authorId: 1 }], 'the file is never written');
  });
});
