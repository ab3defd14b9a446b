import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findMention, MAX_MENTION_TEXT, renderTemplate } from './reply-match.js';

const people = ['Homer', 'Homer Simpson', 'Marge', 'Bart', 'Dr. Nick', 'Zoë'].map((value) => ({ value, item: value }));

test('a name is found among surrounding words, in any case, with punctuation around it', () => {
  assert.equal(findMention('who is homer?', people), 'Homer');
  assert.equal(findMention('WHO IS MARGE!!!', people), 'Marge');
  assert.equal(findMention('  bart.', people), 'Bart');
  assert.equal(findMention('number for dr nick please', people), 'Dr. Nick');
  assert.equal(findMention('zoë?', people), 'Zoë');
});

test('the longest mention wins; parts of words do not count', () => {
  assert.equal(findMention('Homer Simpson, please', people), 'Homer Simpson');
  assert.equal(findMention('homers', people), undefined);
  assert.equal(findMention('bartholomew', people), undefined);
  assert.equal(findMention('', people), undefined);
  assert.equal(findMention('?!', people), undefined);
});

test('templates fill fields', () => {
  assert.equal(renderTemplate('{name}: {number}', { name: 'Homer', number: null }), 'Homer: ');
});

test('only the first MAX_MENTION_TEXT characters are searched: a huge body against many records stays cheap', () => {
  const padding = 'x '.repeat(MAX_MENTION_TEXT / 2);
  assert.equal(findMention(`marge ${padding}`, people), 'Marge');
  assert.equal(findMention(`${padding} marge`, people), undefined, 'a name past the searched part is not found');
  const many = Array.from({ length: 10_000 }, (_, i) => ({ value: `someone ${i} x x`, item: i }));
  assert.equal(findMention('x '.repeat(500_000), many), undefined);
});
