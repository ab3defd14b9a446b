import type { Aspect, ParityStep } from './parity-support.js';

type Row = Record<string, unknown> & { id: number | string };

/**
 * The requests front-end code sends to json-server, in order: reads with every list parameter
 * json-server 0.17 knows (alone and combined), reads of records, misses, then writes each followed
 * by the reads that show them. Built from the generated data (jsonServerParityDb) so that filters
 * hit real values; writes go to both servers in this order, so their states stay equal.
 */
export function parityCorpus(db: Record<string, unknown>): ParityStep[] {
  const users = db.users as Row[];
  const posts = db.posts as Row[];
  const comments = db.comments as Row[];
  const notes = db.notes as Row[];
  const todos = db.todos as Row[];
  const [n1, n2, n3] = notes.map((n) => n.id as string);
  const pinned = notes.find((n) => n.pinned)!;
  const city = (users[0]!.address as { city: string }).city;
  const get = (path: string): ParityStep => ({ method: 'GET', path });

  const reads: ParityStep[] = [
    // Whole collections and records.
    get('/posts'),
    get('/users'),
    get('/notes'),
    get('/profile'),
    get('/posts/1'),
    get('/posts/300'),
    get('/users/7'),
    get('/todos/400'),
    get(`/notes/${n1}`),
    get('/comments/1500'),
    // Misses: status only (the bodies differ by design).
    get('/posts/301'),
    get('/posts/0'),
    get('/posts/abc'),
    get('/notes/zzzz'),
    get('/nothing-here'),
    get('/nothing-here/1'),
    // Equality filters: one value, repeated values (OR), several fields (AND), booleans, numbers, strings.
    get('/posts?userId=3'),
    get('/posts?id=1&id=2'),
    get('/posts?id=1&id=2&id=300&id=999'),
    get('/posts?userId=3&userId=4'),
    get('/posts?published=true'),
    get('/posts?published=false&userId=5'),
    get(`/posts?rating=${posts[0]!.rating}`),
    get('/users?username=user7'),
    get('/users?active=false'),
    get(`/comments?email=${comments[0]!.email}`),
    get('/comments?postId=5'),
    get('/todos?completed=false&userId=2'),
    get('/notes?pinned=true'),
    get(`/notes?id=${n1}&id=${n2}`),
    get(`/notes?userId=${pinned.userId}&pinned=true`),
    get('/users?id_ne=1&_limit=3'),
    get('/posts?views=73451'),
    get('/posts?id_gte=295'),
    get('/notes?id_like=^a'),
    // Ranges and _ne.
    get('/posts?views_gte=90000'),
    get('/posts?views_lte=2000'),
    get('/posts?views_gte=20000&views_lte=30000'),
    get('/posts?rating_gte=4.5'),
    get('/posts?rating_lte=0.3&published=true'),
    get('/users?age_gte=30&age_lte=40'),
    get('/comments?likes_gte=48'),
    get('/notes?priority_gte=4&_sort=priority&_order=desc'),
    get('/posts?userId_ne=1&_limit=20'),
    get('/posts?userId_ne=1&userId_ne=2&_page=3'),
    get('/posts?publishedAt_gte=2025-06-01T00:00:00.000Z'),
    get('/posts?views_gt=99000'),
    // _like: plain text (a case-insensitive substring), anchored, and real regular expressions.
    get('/posts?title_like=lorem'),
    get('/posts?title_like=LOREM'),
    get('/posts?title_like=^lorem'),
    get('/posts?title_like=dolor$'),
    get('/posts?title_like=sed%20sit'),
    get('/posts?title_like=caf%C3%A9%20magna'),
    get('/posts?title_like=^magna%20veniam%20elit%20sit$'),
    get('/users?name_like=^leanne'),
    get('/users?email_like=user1'),
    get('/todos?title_like=sed&_limit=3'),
    get('/comments?body_like=sit%20amet$'),
    get('/posts?title_like=(lorem|ipsum)%20sit'),
    get('/comments?name_like=lorem.ipsum'),
    get('/comments?email_like=reader1%5Cd@'),
    get('/posts?tags_like=magna'),
    // Full-text q.
    get('/posts?q=veniam'),
    get('/posts?q=MAGNA&_limit=5'),
    get('/comments?q=nostrud%20sit'),
    get(`/users?q=${city.toLowerCase()}`),
    get('/posts?q=lorem&_page=2'),
    get('/notes?q=caf%C3%A9'),
    get('/posts?q=73451'),
    // Sorting: one key, both orders, several keys (0.17 form), 1.x's -key, strings, optional fields.
    get('/posts?_sort=views'),
    get('/posts?_sort=views&_order=desc'),
    get('/posts?_sort=views&_order=DESC&_limit=5'),
    get('/posts?_sort=-views&_limit=5'),
    get('/posts?_sort=userId,views&_order=asc,desc'),
    get('/posts?_sort=userId,rating'),
    get('/posts?_sort=rating&_order=asc&_limit=20'),
    get('/posts?_sort=title&_limit=10'),
    get('/posts?_sort=publishedAt&_order=desc&_limit=5'),
    get('/users?_sort=age'),
    get('/users?_sort=age&_order=desc'),
    get('/comments?_sort=likes&_order=desc&_limit=10'),
    get('/notes?_sort=id&_limit=5'),
    get('/users?_sort=name&_order=desc&_limit=5'),
    get('/users?_sort=address.city&_limit=5'),
    get('/photos?albumId=3&_sort=title'),
    // Pages: X-Total-Count and Link.
    get('/posts?_page=1'),
    get('/posts?_page=2'),
    get('/posts?_page=2&_limit=25'),
    get('/posts?_limit=25&_page=12'),
    get('/posts?_page=13&_limit=25'),
    get('/posts?_page=30'),
    get('/posts?_page=31'),
    get('/posts?_page=0'),
    get('/posts?_page=-1'),
    get('/comments?_page=3&_limit=50'),
    get('/photos?_page=100'),
    get('/photos?_page=5&_limit=7'),
    get('/posts?_limit=10&_page=2&_sort=id&_order=desc'),
    get('/posts?userId=7&_sort=views&_order=desc&_page=1&_limit=3'),
    get('/posts?userId=7&_page=1&_limit=100'),
    get(`/notes?_page=2&_limit=5`),
    get('/posts?_page=2&_per_page=5'),
    // Slices.
    get('/posts?_limit=5'),
    get('/posts?_limit=0'),
    get('/posts?_start=10&_end=20'),
    get('/posts?_start=10&_limit=5'),
    get('/posts?_end=5'),
    get('/posts?_start=295&_end=400'),
    get('/posts?_start=10'),
    get('/posts?_start=5&_end=2'),
    get('/comments?postId=9&_start=1&_end=3'),
    // Embedding and expanding.
    get('/posts/1?_embed=comments'),
    get('/posts/1?_expand=user'),
    get('/posts/2?_embed=comments&_expand=user'),
    get('/posts?_embed=comments&_limit=3'),
    get('/posts?_expand=user&_limit=5'),
    get('/posts?_embed=comments&_page=2&_limit=2'),
    get('/posts?_expand=user&_embed=comments&_page=1&_limit=2'),
    get('/users?_embed=posts&_limit=2'),
    get('/users/3?_embed=posts&_embed=albums'),
    get('/users/3?_embed=notes'),
    get('/photos?_expand=album&_limit=3'),
    get('/comments?_expand=post&_limit=2'),
    get(`/notes/${n2}?_expand=user`),
    get('/notes?_expand=user&_limit=2'),
    get('/comments/1?_embed=post'),
    // Nested routes.
    get('/posts/1/comments'),
    get('/posts/1/comments?_sort=id&_order=desc'),
    get('/posts/1/comments?_page=1&_limit=2'),
    get('/users/1/posts'),
    get('/users/1/albums'),
    get('/users/1/todos?completed=true'),
    get('/users/1/notes'),
    get('/albums/1/photos'),
    // What data providers send: react-admin's ra-data-json-server (getList, getMany, getManyReference), refine's.
    get('/posts?_end=10&_order=ASC&_sort=id&_start=0'),
    get('/posts?_end=20&_order=DESC&_sort=views&_start=10&published=true'),
    get('/posts?id=5&id=9&id=12'),
    get('/comments?_end=10&_order=DESC&_sort=id&_start=0&postId=1'),
    get('/posts?_start=0&_end=10&_sort=rating&_order=desc&title_like=lorem&userId_ne=3'),
    get('/posts?q=nostrud&_start=0&_end=5'),
    // axios serializes an array parameter as id[]=1&id[]=2; json-server's qs parser reads that as id=1&id=2.
    get('/posts?id%5B%5D=1&id%5B%5D=2'),
    // What json-server ignores (or reads its own way).
    get('/comments?postId=9&_=1716400000000'),
    get('/comments?unknownField=1&_limit=2'),
    get('/posts?views=abc'),
    get('/posts?_limit=abc'),
    get(`/users?address.city=${encodeURIComponent(city)}`),
    get('/notes?meta.color=red&_limit=3'),
    get('/comments?postId=9&callback=handle'),
    // Methods a collection or record does not take.
    { method: 'DELETE', path: '/posts' },
    { method: 'POST', path: '/posts/1', body: { title: 'x' } },
  ];

  // Writes, each followed by reads that show it. Ids: json-server gives max + 1, as Restwell's sequence does while nothing was deleted at the end.
  const post = { userId: 1, title: 'a new post', body: 'written by the parity test', views: 0, rating: 1.5, published: false, publishedAt: '2026-05-01T10:00:00.000Z', tags: ['new'] };
  const todo1 = todos[0]!;
  const withComments = posts.find((p) => p.id !== 1 && p.id !== 2 && comments.some((c) => c.postId === p.id))!;
  const writes: ParityStep[] = [
    { method: 'POST', path: '/posts', body: post },
    get('/posts/301'),
    get('/posts?_sort=id&_order=desc&_limit=2'),
    { method: 'PATCH', path: '/posts/301', body: { title: 'patched title', views: 7 } },
    get('/posts/301'),
    { method: 'PUT', path: '/posts/301', body: { ...post, title: 'put title', tags: ['a', 'b'] } },
    get('/posts?id=301'),
    { method: 'PATCH', path: '/posts/6', body: { tags: ['a', 'b', 'c'], published: true } },
    get('/posts/6'),
    get('/posts?published=true&_page=1'),
    // A comment through the nested route: json-server keeps the URL's "1" as the postId (a string), so both are then patched to the number.
    { method: 'POST', path: '/posts/1/comments', body: { name: 'nested', email: 'n@example.org', body: 'through /posts/1/comments', likes: 1 } },
    { method: 'PATCH', path: '/comments/1501', body: { postId: 1 } },
    get('/posts/1/comments'),
    get('/posts/1?_embed=comments'),
    { method: 'POST', path: '/comments', body: { postId: 2, name: 'plain', email: 'p@example.org', body: 'through /comments', likes: 3 } },
    get('/comments/1502'),
    get('/comments?_page=1&_limit=5&_sort=id&_order=desc'),
    { method: 'PATCH', path: '/comments/1502', body: { likes: 4, body: 'edited' } },
    get('/posts/2/comments?_sort=likes&_order=desc'),
    { method: 'POST', path: '/todos', body: { userId: 1, title: 'write the parity test', completed: false } },
    get('/todos/401'),
    { method: 'PATCH', path: `/todos/${todo1.id}`, body: { completed: !todo1.completed } },
    get(`/todos?userId=${todo1.userId}&_sort=id`),
    { method: 'PUT', path: '/todos/2', body: { userId: 2, title: 'replaced', completed: true } },
    get('/todos/2'),
    get('/todos?completed=true&_page=1&_limit=20'),
    // A front-end sends back what it read, Restwell's members included (ignored), and may choose an id.
    { method: 'PUT', path: '/todos/5', label: 'with system members', body: { id: 5, userId: 5, title: 'sent back', completed: true, version: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' } },
    { method: 'PATCH', path: '/todos/6', label: 'with system members', body: { completed: true, version: 99, updatedAt: '2020-01-01T00:00:00.000Z' } },
    get('/todos?id=5&id=6'),
    { method: 'POST', path: '/todos', label: 'chosen id', body: { id: 500, userId: 3, title: 'chosen id', completed: false } },
    { method: 'POST', path: '/todos', label: 'after a chosen id', body: { userId: 3, title: 'next id', completed: false } },
    get('/todos?_sort=id&_order=desc&_limit=3'),
    // What json-server stores without a look (no userId, a string for a boolean), Restwell refuses; json-server's record is deleted again.
    { method: 'POST', path: '/todos', label: 'invalid', body: { title: 'no user', completed: 'yes' }, undoCreate: true },
    { method: 'PATCH', path: '/todos/7', label: 'invalid', body: { completed: 'yes' }, thenOnJsonServer: [{ method: 'PATCH', path: '/todos/7', body: { completed: todos[6]!.completed } }] },
    get('/todos/7'),
    // String ids: the client chooses them.
    { method: 'POST', path: '/notes', body: { id: 'zz01', userId: 2, text: 'a note', pinned: true, priority: 3, meta: { color: 'red', labels: [] } } },
    get('/notes/zz01'),
    { method: 'PATCH', path: '/notes/zz01', body: { pinned: false, meta: { color: 'blue', labels: ['x'] } } },
    { method: 'PUT', path: '/notes/zz01', body: { userId: 3, text: 'replaced note', pinned: true, priority: 1, meta: { color: 'green', labels: ['y'] } } },
    get('/notes?userId=3&pinned=true'),
    { method: 'DELETE', path: '/notes/zz01' },
    get('/notes/zz01'),
    get('/notes?_page=1&_limit=5'),
    { method: 'POST', path: '/notes', label: 'taken id', body: { id: n3, userId: 2, text: 'taken id', pinned: false, priority: 1, meta: {} } },
    get(`/notes/${n3}`),
    // A user without the optional age.
    { method: 'POST', path: '/users', body: { name: 'New User', username: 'newuser', email: 'new@example.com', address: { street: '1 main street', city: 'Nowhere', zipcode: '00000', geo: { lat: '0', lng: '0' } }, company: { name: 'None', catchPhrase: 'none' }, active: true } },
    get('/users/51'),
    get('/users?_page=6'),
    // PUT and PATCH at an unknown id.
    { method: 'PUT', path: '/todos/9999', body: { userId: 1, title: 'put at an unknown id', completed: false }, thenOnRestwell: [{ method: 'DELETE', path: '/todos/9999' }] },
    { method: 'PATCH', path: '/todos/9999', body: { completed: true } },
    { method: 'DELETE', path: '/todos/9999' },
    get('/todos?_page=1'),
    // Deleting records: one nothing refers to, then one that comments refer to (both delete those comments too).
    { method: 'DELETE', path: '/comments/3' },
    get('/comments/3'),
    get('/comments?_page=1&_limit=3'),
    get(`/posts/${withComments.id}/comments`),
    { method: 'DELETE', path: `/posts/${withComments.id}` },
    get(`/posts/${withComments.id}`),
    get(`/comments?postId=${withComments.id}`),
    get('/comments?_page=1&_limit=1'),
    get('/posts?_page=1&_limit=1'),
    { method: 'DELETE', path: '/posts/301' },
    get('/posts/301'),
    get('/posts?_page=30'),
    // json-server gives the next POST the id just deleted (the largest + 1); Restwell never gives an id twice.
    { method: 'POST', path: '/posts', label: 'after deleting the last', body: post, undoCreate: true },
    get('/posts?_page=30'),
    // A user with posts (with comments), albums (with photos), todos and notes: json-server deletes the records that
    // refer to the user, and those that referred to them at its next DELETE (of anything).
    get('/posts?userId=50'),
    { method: 'DELETE', path: '/users/50' },
    get('/posts?userId=50'),
    get('/albums?userId=50'),
    get('/todos?userId=50'),
    get('/notes?userId=50'),
    { ...get('/comments?_page=1&_limit=1'), label: 'orphans' },
    { ...get('/photos?_page=1&_limit=1'), label: 'orphans' },
    { method: 'DELETE', path: '/comments/4' },
    get('/comments?_page=1&_limit=1'),
    get('/photos?_page=1&_limit=1'),
    // The singular profile.
    { method: 'PATCH', path: '/profile', body: { theme: 'light' } },
    get('/profile'),
    { method: 'PUT', path: '/profile', body: { name: 'restwell', theme: 'dark', notifications: { email: false, sms: true } } },
    get('/profile'),
    { method: 'POST', path: '/profile', body: { name: 'posted', theme: 'light', notifications: { email: true, sms: true } } },
    get('/profile'),
  ];
  return [...reads, ...writes];
}

const Q_REASON = 'q searches the text fields; json-server also matches numbers, booleans and the text inside JSON values (nested objects, arrays such as tags)';

/** A difference between json-server's answer and Restwell's that is meant. */
export interface IntentionalDifference {
  /** The request (`GET /posts?_page=0`) as the corpus sends it. */
  request: string;
  aspect: Aspect;
  reason: string;
}

/** Differences that hold for a kind of request rather than one: the aspect is not compared for those requests. */
export const GENERAL_DIFFERENCES: Array<{ requests: string; aspect: Aspect; reason: string }> = [
  {
    requests: 'any request both answer with an error status',
    aspect: 'body',
    reason: 'error bodies differ by design: json-server answers {} (404) or a stack trace (500), Restwell an RFC 9457 application/problem+json',
  },
  {
    requests: 'GET of one record (/{collection}/{id}) or of a singular resource (/profile), when json-server sends no Link',
    aspect: 'link',
    reason: 'Restwell links a record to itself, its collection and the records it refers to (Link: rel=self, collection, and one per reference field); json-server sends none, and a front-end reading the body sees no difference',
  },
  {
    requests: 'any answer with records',
    aspect: 'body',
    reason:
      "a record holds every field of its resource, so a field the data file's row did not have reads null (comments' likes, users' age); json-server's record just lacks the member. Compared without Restwell's null members that json-server's record lacks",
  },
  {
    requests: 'a whole list (no _sort, _page, _limit, _start or _end) of a collection with string ids, and the records embedded in it',
    aspect: 'body',
    reason:
      'without _sort, Restwell lists records in id order; json-server in the order they were inserted (file order), which for integer ids is id order too but for string ids ("b21e", "260c") is not. Compared as sorted by id; lists cut by a page or a limit, where other records come back, are listed one by one',
  },
];

/** Whether a request lists a whole collection without asking for an order (the string-id order rule applies). */
export const isWholeUnsortedList = (r: { method: string; path: string }) => r.method === 'GET' && !/[?&](_sort|_page|_limit|_start|_end)=/.test(r.path);

/** Whether a request is a GET of one record (the path's second segment is an id; no nested collection) or of a singular resource of `db`. */
export const isRecordRead = (r: { method: string; path: string }, db: Record<string, unknown>) => {
  const segments = r.path.split('?')[0]!.split('/').slice(1);
  const singular = segments.length === 1 && db[segments[0]!] !== null && typeof db[segments[0]!] === 'object' && !Array.isArray(db[segments[0]!]);
  return r.method === 'GET' && (segments.length === 2 || singular);
};

/**
 * Every other difference the corpus shows, request by request: the test fails on any difference not
 * listed here, and on a listed one that no longer shows (so the list stays true).
 */
export const INTENTIONAL_DIFFERENCES: IntentionalDifference[] = [
  {
    request: 'GET /comments?unknownField=1&_limit=2',
    aspect: 'status',
    reason: 'a filter on a field the collection does not have is a 400 that names the fields (json-server drops the parameter and answers everything, so a typo reads as "no filter")',
  },
  {
    request: 'GET /posts?title_like=(lorem|ipsum)%20sit',
    aspect: 'status',
    reason: '_like takes literal text, or ^ and literal text (a substring or a prefix, what the database matches exactly); a regular expression with alternation is a 400 whose detail says so',
  },
  { request: 'GET /comments?name_like=lorem.ipsum', aspect: 'status', reason: '_like: an unescaped "." is regex syntax beyond a substring or a ^prefix (400); lorem\\.ipsum is the literal' },
  { request: 'GET /comments?email_like=reader1%5Cd@', aspect: 'status', reason: '_like: a character class (\\d) is regex syntax beyond a substring or a ^prefix (400)' },
  {
    request: 'GET /posts?_sort=-views&_limit=5',
    aspect: 'body',
    reason: "json-server 1.x's _sort=-field is a descending sort in Restwell; 0.17 sorts by a member named \"-views\" that no record has, so it keeps file order",
  },
  {
    request: 'GET /posts?_page=0',
    aspect: 'link',
    reason: 'json-server reads _page=0 as page 1 but builds its links by replacing "page=1" in the URL, which is not there: every link is the request URL itself; Restwell links the real pages',
  },
  { request: 'GET /comments?postId=9&callback=handle', aspect: 'body', reason: 'no JSONP: callback is ignored and the answer is JSON (json-server wraps it in a call of callback as text/javascript)' },
  { request: 'POST /notes [taken id]', aspect: 'status', reason: 'a POST of an id that is taken is a 409 problem (json-server throws "Insert failed, duplicate id": a 500 with its stack)' },
  ...(['GET /posts?q=veniam', 'GET /users?q=mckenziehaven', 'GET /posts?q=lorem&_page=2', 'GET /notes?q=caf%C3%A9', 'GET /posts?q=73451'] as const).map((request) => ({
    request,
    aspect: 'body' as const,
    reason: Q_REASON,
  })),
  { request: 'GET /posts?q=MAGNA&_limit=5', aspect: 'x-total-count', reason: Q_REASON },
  { request: 'GET /posts?q=nostrud&_start=0&_end=5', aspect: 'body', reason: Q_REASON },
  { request: 'GET /posts?q=nostrud&_start=0&_end=5', aspect: 'x-total-count', reason: Q_REASON },
  { request: 'GET /posts?q=lorem&_page=2', aspect: 'x-total-count', reason: Q_REASON },
  {
    request: 'GET /posts?views_gt=99000',
    aspect: 'body',
    reason: "json-server 1.x's _gt is a filter in Restwell; 0.17 knows only _gte/_lte/_ne/_like and drops the parameter (every record)",
  },
  {
    request: 'GET /posts?_page=2&_per_page=5',
    aspect: 'body',
    reason: "json-server 1.x's _per_page answers its pages object {first, prev, next, last, pages, items, data} in Restwell; 0.17 ignores _per_page (10 records a page, a bare array)",
  },
  ...(['x-total-count', 'link'] as const).map((aspect) => ({
    request: 'GET /posts?_page=2&_per_page=5',
    aspect,
    reason: 'the pages object carries the count and the neighbouring pages itself, so (as json-server 1.x) no X-Total-Count and no Link',
  })),
  ...(['GET /posts?title_like=dolor$', 'GET /posts?title_like=^magna%20veniam%20elit%20sit$', 'GET /comments?body_like=sit%20amet$'] as const).map((request) => ({
    request,
    aspect: 'status' as const,
    reason: '_like runs what the database matches exactly and fast: a substring or a ^prefix; a $ anchor is regular-expression syntax beyond that (400, naming what works)',
  })),
  { request: 'GET /posts?views=abc', aspect: 'status', reason: 'a value that cannot be the field\'s type is a 400 naming it; json-server compares text and matches nothing' },
  { request: 'GET /posts?_limit=abc', aspect: 'status', reason: '_limit must be a whole number (400); json-server reads NaN and answers an empty slice' },
  {
    request: 'GET /posts?_page=-1',
    aspect: 'status',
    reason: '_page must be a whole number from 0 (0 reads as the first page); json-server reads any value below 1, negative ones too, as page 1',
  },
  ...(['GET /notes?_page=1&_limit=5', 'GET /notes?_page=2&_limit=5', 'GET /notes?_expand=user&_limit=2', 'GET /notes?priority_gte=4&_sort=priority&_order=desc'] as const).map((request) => ({
    request,
    aspect: 'body' as const,
    reason: 'string ids: Restwell orders by id where json-server keeps insertion order (the list\'s default order, and ties of a _sort), so a page holds other records (see GENERAL_DIFFERENCES)',
  })),
  {
    request: 'GET /comments/1?_embed=post',
    aspect: 'body',
    reason: "json-server 1.x's forward _embed=post embeds the post the comment refers to; 0.17 looks for a collection named post, finds none and embeds an empty array (\"post\": [])",
  },
  { request: 'GET /posts?tags_like=magna', aspect: 'status', reason: '_like applies to text fields; tags is a JSON array, which json-server matches as its text "a,b" (400)' },
  ...(['GET /users?address.city=McKenziehaven', 'GET /notes?meta.color=red&_limit=3'] as const).map((request) => ({
    request,
    aspect: 'status' as const,
    reason: 'filters name fields, not paths into a JSON value (json-server follows lodash paths such as address.city): 400',
  })),
  { request: 'GET /users?_sort=address.city&_limit=5', aspect: 'status', reason: 'sorts name fields, not paths into a JSON value (json-server follows lodash paths): 400' },
  {
    request: 'POST /posts/1/comments',
    aspect: 'body',
    reason: 'the nested POST stores postId as the number 1 (the field is a reference to posts); json-server copies the URL text "1" into it (the test then patches json-server\'s to the number)',
  },
  {
    request: 'POST /posts/1/comments',
    aspect: 'location',
    reason: "Location is the created comment's own URL, /comments/1501; json-server appends the id to the nested URL (/posts/1/comments/1501), which it cannot serve",
  },
  ...(['GET /comments?_page=1&_limit=1 [orphans]', 'GET /photos?_page=1&_limit=1 [orphans]'] as const).flatMap((request) =>
    (['x-total-count', 'link'] as const).map((aspect) => ({
      request,
      aspect,
      reason:
        "DELETE /users/50 takes what refers to the user with it all the way down, in one transaction (its posts' comments, its albums' photos); json-server deletes one level (posts, albums, todos, notes) and the records that referred to those only at its next DELETE of anything (here DELETE /comments/4, after which the counts agree)",
    })),
  ),
  ...(['body', 'location'] as const).map((aspect) => ({
    request: 'POST /posts [after deleting the last]',
    aspect,
    reason: 'Restwell never gives an id twice; json-server gives the largest id + 1, so the id of the post just deleted comes back (both records are deleted again)',
  })),
  { request: 'DELETE /posts', aspect: 'status', reason: 'a method the collection does not take is a 405 with Allow (json-server: 404)' },
  { request: 'POST /posts/1', aspect: 'status', reason: 'a method the record does not take is a 405 with Allow (json-server: 404)' },
  {
    request: 'POST /todos [invalid]',
    aspect: 'status',
    reason: 'a body that breaks the inferred fields (userId required, completed a boolean) is a 422 problem naming each member; json-server stores anything (the test deletes its record again)',
  },
  { request: 'PATCH /todos/7 [invalid]', aspect: 'status', reason: 'as for the POST: a string for a boolean field is a 422; json-server stores it (the test patches it back)' },
  {
    request: 'PUT /todos/9999',
    aspect: 'status',
    reason: 'PUT at an unknown id creates the record with that id (201, as RFC 9110 says); json-server 404s. The test deletes it from Restwell again so both states stay equal',
  },
];
