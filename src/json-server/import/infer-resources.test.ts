import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportError } from './import-error.js';
import { inferImport } from './infer-resources.js';
import { pluralOf } from './plural.js';

const UUID_A = '0190a5c4-8b1e-7c3d-9f00-0123456789ab';
const UUID_B = '0190A5C4-8B1E-7C3D-9F00-0123456789AC';

function problems(data: unknown): string {
  try {
    inferImport(data, 'db.json');
  } catch (err) {
    assert.ok(err instanceof ImportError, String(err));
    return err.message;
  }
  assert.fail('expected the file to be refused');
}

describe('inferring resources from a json-server db.json', () => {
  it('infers each field type from all rows, and required only where every row has a value', () => {
    const plan = inferImport(
      {
        posts: [
          { id: 1, title: 'a', views: 3, score: 1, published: true, at: '2024-01-01T10:00:00Z', when: '2024-01-01T10:00:00+02:00', day: '2024-01-01', tags: ['x'], meta: { a: 1 }, mixed: 1, gone: null },
          { id: 2, title: 'b', views: 4, score: 2.5, published: false, at: '2024-01-02T10:00:00.123Z', when: 'soon', day: '2024-01-02', tags: [], mixed: 'one', gone: null },
        ],
      },
      'db.json',
    );
    assert.deepEqual(plan.resources.posts, {
      fields: {
        title: { type: 'string', required: true },
        views: { type: 'integer', required: true },
        score: { type: 'number', required: true },
        published: { type: 'boolean', required: true },
        at: { type: 'datetime', required: true },
        when: { type: 'string', required: true },
        day: { type: 'string', required: true },
        tags: { type: 'json', required: true },
        meta: { type: 'json' },
        mixed: { type: 'json', required: true },
        gone: { type: 'json' },
      },
    });
    assert.deepEqual(plan.collections[0]!.ids, [1, 2]);
    assert.deepEqual(plan.collections[0]!.rows[0]!.title, 'a');
    assert.equal('id' in plan.collections[0]!.rows[0]!, false);
  });

  it('keeps integer ids, turns canonical numeric strings into integers, and all-UUID ids into id: uuid (lower case)', () => {
    const plan = inferImport({ a: [{ id: 7 }, { id: '12' }], b: [{ id: UUID_A }, { id: UUID_B }] }, 'db.json');
    assert.deepEqual(plan.collections.find((c) => c.name === 'a')!.ids, [7, 12]);
    assert.equal(plan.resources.a!.id, undefined);
    assert.equal(plan.resources.b!.id, 'uuid');
    assert.deepEqual(plan.collections.find((c) => c.name === 'b')!.ids, [UUID_A, UUID_B.toLowerCase()]);
  });

  it('makes a collection of other string ids id: string, keeping each exactly (case, leading zeros)', () => {
    const plan = inferImport({ a: [{ id: 'a3f1' }, { id: 'A3F1' }, { id: 'Jz5f9_a' }, { id: '012' }, { id: '12' }, { id: UUID_B }] }, 'db.json');
    assert.equal(plan.resources.a!.id, 'string');
    assert.deepEqual(plan.collections[0]!.ids, ['a3f1', 'A3F1', 'Jz5f9_a', '012', '12', UUID_B]);
  });

  it('refuses ids Restwell cannot keep, naming the collection and row', () => {
    assert.match(problems({ notes: [{ id: 'a1b2' }, { id: 'a b' }] }), /notes: row 2 has id "a b", which Restwell cannot keep: string ids are 1–64 characters of A-Z a-z 0-9 _ -/);
    assert.match(problems({ notes: [{ id: 'x'.repeat(65) }] }), /notes: row 1 has id "x{65}", which Restwell cannot keep/);
    assert.match(problems({ notes: [{ id: '' }] }), /notes: row 1 has id "", which Restwell cannot keep/);
    // Numbers and strings do not mix: json-server's loose matching made 1 and "1" the same id.
    assert.match(problems({ notes: [{ id: 1 }, { id: 'a1b2c3d' }] }), /notes: row 2 has id "a1b2c3d", which Restwell cannot keep: .*numbers and strings do not mix/);
    assert.match(problems({ notes: [{ id: 'a1b2' }, { id: 'a1b2' }] }), /notes: row 2 repeats id "a1b2"/);
    assert.match(problems({ notes: [{ id: 1 }, { id: 1.5 }] }), /notes: row 2 has id 1\.5/);
    assert.match(problems({ notes: [{ id: 1 }, { title: 'x' }] }), /notes: row 2 has no id/);
    assert.match(problems({ notes: [{ id: 1 }, { id: '1' }] }), /notes: row 2 repeats id "1"/);
    assert.match(problems({ notes: [{ id: UUID_A }, { id: 3 }] }), /notes: row 1 has id/);
  });

  it('makes <singular>Id fields references when every value is an id of that collection', () => {
    const plan = inferImport(
      {
        posts: [{ id: 1, categoryId: 1, userId: 9 }],
        comments: [{ id: 1, postId: 1 }, { id: 2, postId: null }],
        categories: [{ id: 1 }],
        users: [{ id: 1 }],
      },
      'db.json',
    );
    assert.deepEqual(plan.resources.comments!.fields.postId, { type: 'reference', to: 'posts' });
    assert.deepEqual(plan.resources.posts!.fields.categoryId, { type: 'reference', to: 'categories', required: true });
    assert.deepEqual(plan.resources.posts!.fields.userId, { type: 'integer', required: true });
    assert.ok(plan.notes.some((n) => /posts\.userId: kept as integer, not a reference to users: 9 is no id of users/.test(n)));
    // Referenced collections load first; the config keeps the file's order.
    const order = plan.collections.map((c) => c.name);
    assert.ok(order.indexOf('categories') < order.indexOf('posts') && order.indexOf('posts') < order.indexOf('comments'));
    assert.deepEqual(Object.keys(plan.resources), ['posts', 'comments', 'categories', 'users']);
  });

  it('references UUID ids in lower case, and leaves a cycle as plain fields', () => {
    const plan = inferImport({ authors: [{ id: UUID_A }], books: [{ id: 1, authorId: UUID_A.toUpperCase(), bookId: 1 }] }, 'db.json');
    assert.deepEqual(plan.resources.books!.fields.authorId, { type: 'reference', to: 'authors', required: true });
    assert.equal(plan.collections.find((c) => c.name === 'books')!.rows[0]!.authorId, UUID_A);
    assert.deepEqual(plan.resources.books!.fields.bookId, { type: 'integer', required: true });
    assert.ok(plan.notes.some((n) => /books\.bookId: .*cycle/.test(n)));
  });

  it('references string ids exactly (case-sensitive), and keeps a value that is no id as a string with a note', () => {
    const plan = inferImport({ posts: [{ id: 'a3f1' }, { id: 'A3F1' }], comments: [{ id: 'c1', postId: 'A3F1' }], likes: [{ id: 'l1', postId: 'a3F1' }] }, 'db.json');
    assert.deepEqual(plan.resources.comments!.fields.postId, { type: 'reference', to: 'posts', required: true });
    assert.equal(plan.collections.find((c) => c.name === 'comments')!.rows[0]!.postId, 'A3F1');
    assert.deepEqual(plan.resources.likes!.fields.postId, { type: 'string', required: true });
    assert.ok(plan.notes.some((n) => /likes\.postId: kept as string, not a reference to posts: "a3F1" is no id of posts/.test(n)));
  });

  it('keeps createdAt and updatedAt date-times as the records\' own, not as fields', () => {
    const plan = inferImport({ posts: [{ id: 1, title: 'a', createdAt: '2024-01-01T00:00:00Z', updatedAt: null }, { id: 2, title: 'b' }] }, 'db.json');
    assert.deepEqual(plan.resources.posts, { fields: { title: { type: 'string', required: true } } });
    assert.deepEqual(plan.collections[0]!.timestamps, ['createdAt', 'updatedAt']);
  });

  it('makes a single object a singular resource (fields inferred as from a row, loaded as id 1) and ignores $schema', () => {
    const plan = inferImport({ $schema: './schema.json', profile: { name: 'typicode', age: null, createdAt: '2024-01-01T00:00:00Z' }, posts: [] }, 'db.json');
    assert.deepEqual(Object.keys(plan.resources), ['profile', 'posts']);
    assert.deepEqual(plan.resources.profile, { singular: true, fields: { name: { type: 'string', required: true }, age: { type: 'json' } } });
    assert.deepEqual(plan.resources.posts, { fields: {} });
    const profile = plan.collections.find((c) => c.name === 'profile')!;
    assert.deepEqual(profile.ids, [1]);
    assert.deepEqual(profile.rows, [{ name: 'typicode', age: null, createdAt: '2024-01-01T00:00:00Z' }]);
    assert.deepEqual(profile.timestamps, ['createdAt']);
    assert.deepEqual(plan.notes, []);
  });

  it('never makes a field a reference to a singular resource, and refuses what a singular object cannot keep', () => {
    const plan = inferImport({ users: { name: 'one' }, posts: [{ id: 1, userId: 1 }] }, 'db.json');
    assert.deepEqual(plan.resources.posts!.fields.userId, { type: 'integer', required: true });
    assert.match(problems({ profile: { id: 7, name: 'x' } }), /profile: member "id" of this single object cannot be kept/);
    assert.match(problems({ Profile: { name: 'x' } }), /"Profile" cannot be a Restwell resource name/);
    assert.match(problems({ profile: { version: 3 } }), /profile: field "version" clashes with the member Restwell sets/);
  });

  it('refuses a wrong shape, bad names and fields that clash with what Restwell sets, with one problem each', () => {
    assert.match(problems([{ id: 1 }]), /must hold a JSON object .* it holds an array/);
    assert.match(problems({ count: 3 }), /"count" is a number; every member must be a collection/);
    assert.match(problems({ Posts: [{ id: 1 }] }), /"Posts" cannot be a Restwell collection name/);
    assert.match(problems({ posts: [{ id: 1, 'first-name': 'a' }] }), /posts: field "first-name" cannot be a Restwell field name/);
    assert.match(problems({ posts: [{ id: 1, createdAt: 'yesterday' }] }), /posts: field "createdAt" clashes with the member Restwell sets on every record \(it is kept as the record's own createdAt when every value is an RFC 3339 date-time/);
    assert.match(problems({ posts: [{ id: 1, version: 2 }] }), /posts: field "version" clashes with the member Restwell sets on every record; rename it/);
    assert.match(problems({ posts: [1, 2] }), /posts: row 1 is 1, not an object/);
    const both = problems({ a: [{ id: 'x/1' }], b: [{ id: 'y?' }] });
    assert.match(both, /a: row 1/);
    assert.match(both, /b: row 1/);
  });

  it('pluralizes foreign keys as json-server does for common nouns', () => {
    assert.deepEqual(['post', 'category', 'box', 'person', 'day', 'status'].map(pluralOf), ['posts', 'categories', 'boxes', 'people', 'days', 'statuses']);
  });
});
