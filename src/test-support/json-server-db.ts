/**
 * A realistic json-server data file (the shape of its README and of jsonplaceholder): users, their
 * posts and the posts' comments, and a singular `profile`, with `rows` rows in all (a tenth users,
 * three tenths posts, the rest comments). Deterministic: the same `rows` give the same file.
 */
export function jsonServerDb(rows: number): Record<string, unknown> {
  let seed = 0x2f6b_11a3;
  const random = () => {
    // mulberry32: small, fast, and good enough for sample data.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => 1 + Math.floor(random() * n);
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'eiusmod', 'tempor', 'magna', 'aliqua', 'veniam', 'nostrud'];
  const text = (n: number) => Array.from({ length: n }, () => words[int(words.length) - 1]).join(' ');
  const userCount = Math.max(1, Math.floor(rows / 10));
  const postCount = Math.max(1, Math.floor((rows * 3) / 10));
  const commentCount = Math.max(0, rows - userCount - postCount);
  const users = Array.from({ length: userCount }, (_, i) => ({
    id: i + 1,
    name: `User ${i + 1}`,
    username: `user${i + 1}`,
    email: `user${i + 1}@example.com`,
    address: { street: `${int(999)} ${text(1)} street`, city: text(1), zipcode: String(10000 + int(89999)) },
    active: random() < 0.8,
  }));
  const posts = Array.from({ length: postCount }, (_, i) => ({
    id: i + 1,
    userId: int(userCount),
    title: text(4),
    body: text(20),
    views: int(100000),
    rating: Math.round(random() * 500) / 100 + 0.01,
    publishedAt: new Date(Date.UTC(2020, 0, 1) + int(1e11)).toISOString(),
    tags: [text(1), text(1)],
  }));
  const comments = Array.from({ length: commentCount }, (_, i) => ({
    id: i + 1,
    postId: int(postCount),
    name: text(3),
    email: `reader${int(5000)}@example.org`,
    body: text(12),
    ...(random() < 0.5 ? { likes: int(50) } : {}),
  }));
  return { users, posts, comments, profile: { name: 'typicode' } };
}

/** A deterministic pseudo-random source (mulberry32: small, fast, and good enough for sample data). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A richer json-server data file, for comparing answers with json-server itself: users (nested
 * address and company objects, booleans, an optional age), posts → users (numbers, an array of
 * tags, a date-time), comments → posts (an optional `likes`), albums → users, photos → albums,
 * todos → users (booleans), notes with json-server 1.x-style string ids ("a3f1") → users, and a
 * singular `profile`: about 3,500 rows. Deterministic: the same file every time.
 */
export function jsonServerParityDb(): Record<string, unknown> {
  const random = seeded(0x51_7a_c0_de);
  const int = (n: number) => 1 + Math.floor(random() * n);
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'eiusmod', 'tempor', 'Magna', 'aliqua', 'veniam', 'nostrud', 'café'];
  const pick = <T>(list: readonly T[]) => list[int(list.length) - 1]!;
  const text = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');
  const cities = ['Gwenborough', 'Wisokyburgh', 'McKenziehaven', 'South Elvis', 'Roscoeview', 'South Christy', 'Howemouth', 'Aliyaview', 'Bartholomebury', 'Lebsackbury'];
  const users = Array.from({ length: 50 }, (_, i) => ({
    id: i + 1,
    name: `${pick(['Leanne', 'Ervin', 'Clementine', 'Patricia', 'Chelsey', 'Dennis', 'Kurtis', 'Nicholas', 'Glenna', 'Clementina'])} ${pick(['Graham', 'Howell', 'Bauch', 'Lebsack', 'Dietrich', 'Schulist', 'Weissnat', 'Runolfsdottir', 'Reichert', 'DuBuque'])}`,
    username: `user${i + 1}`,
    email: `user${i + 1}@example.com`,
    address: { street: `${int(999)} ${pick(words)} street`, city: pick(cities), zipcode: String(10000 + int(89999)), geo: { lat: String(int(180) - 90), lng: String(int(360) - 180) } },
    company: { name: `${pick(words)} ${pick(['LLC', 'Group', 'Inc'])}`, catchPhrase: text(3) },
    active: random() < 0.7,
    ...(random() < 0.8 ? { age: 18 + int(60) } : {}),
  }));
  const posts = Array.from({ length: 300 }, (_, i) => ({
    id: i + 1,
    userId: int(users.length),
    title: text(4),
    body: text(20),
    views: int(100000),
    rating: Math.round(random() * 500) / 100,
    published: random() < 0.6,
    publishedAt: new Date(Date.UTC(2020, 0, 1) + int(2e8) * 1000).toISOString(),
    tags: [pick(words), pick(words)],
  }));
  const comments = Array.from({ length: 1500 }, (_, i) => ({
    id: i + 1,
    postId: int(posts.length),
    name: text(3),
    email: `reader${int(400)}@example.org`,
    body: text(12),
    ...(random() < 0.5 ? { likes: int(50) } : {}),
  }));
  const albums = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, userId: int(users.length), title: text(3) }));
  const photos = Array.from({ length: 1000 }, (_, i) => {
    const colour = Math.floor(random() * 0xffffff).toString(16).padStart(6, '0');
    return { id: i + 1, albumId: int(albums.length), title: text(5), url: `https://via.placeholder.com/600/${colour}`, thumbnailUrl: `https://via.placeholder.com/150/${colour}` };
  });
  const todos = Array.from({ length: 400 }, (_, i) => ({ id: i + 1, userId: int(users.length), title: text(4), completed: random() < 0.45 }));
  const noteIds = new Set<string>();
  while (noteIds.size < 200) noteIds.add(Math.floor(random() * 0x10000).toString(16).padStart(4, '0'));
  const notes = [...noteIds].map((id) => ({ id, userId: int(users.length), text: text(6), pinned: random() < 0.2, priority: int(5), meta: { color: pick(['red', 'green', 'blue']), labels: [pick(words)] } }));
  return { users, posts, comments, albums, photos, todos, notes, profile: { name: 'typicode', theme: 'dark', notifications: { email: true, sms: false } } };
}
