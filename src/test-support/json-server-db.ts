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
